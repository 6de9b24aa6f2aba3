// The host's part of MCP Apps in the browser test (mcp-apps.test.ts): the SDK's AppBridge beside a sandboxed
// iframe, as a chat host runs it. Bundled by the test with esbuild; runs in Chromium, not in Node.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult } from '@modelcontextprotocol/client';

type HostWindow = Window & {
  showView(html: string, csp: string, result: CallToolResult): Promise<void>;
  openedLinks: string[];
};
const host = window as unknown as HostWindow;
host.openedLinks = [];

/** Renders a view's HTML under the CSP its resource declared, hands it a tool result, and resolves once it is sent. */
host.showView = async (html, csp, result) => {
  const iframe = document.createElement('iframe');
  iframe.title = 'Butik';
  // Scripts only: an opaque origin, no navigation, no pop-ups; links go through ui/open-link.
  iframe.setAttribute('sandbox', 'allow-scripts');
  document.getElementById('chat')?.append(iframe);
  const view = iframe.contentWindow;
  if (!view) throw new Error('the iframe has no window');
  const bridge = new AppBridge(null, { name: 'Butik test host', version: '1.0.0' }, { openLinks: {} });
  bridge.onopenlink = async ({ url }) => {
    host.openedLinks.push(url);
    return {};
  };
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) iframe.style.height = `${height}px`;
  };
  const initialized = new Promise<void>((resolve) => { bridge.oninitialized = () => resolve(); });
  await bridge.connect(new PostMessageTransport(view, view));
  iframe.srcdoc = html.replace('<head>', `<head><meta http-equiv="Content-Security-Policy" content="${csp}">`);
  await initialized;
  await bridge.sendToolResult(result);
};
