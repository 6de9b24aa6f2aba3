import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { TestApp } from '../helpers/app.ts';
import type { CallResult } from '../helpers/app.ts';
import { send } from '../helpers/http.ts';

export type Era = 'legacy' | 'modern';

/** Makes the test app listen on 127.0.0.1 and returns the /api/mcp URL. */
export async function listen(t: TestApp): Promise<URL> {
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  return new URL('/api/mcp', address);
}

/**
 * A real SDK client: the initialize handshake (legacy, 2025-11-25) or the sessionless 2026-07-28
 * era pinned through `server/discover`.
 */
export async function connect(url: URL, options: { key?: string; era?: Era } = {}): Promise<Client> {
  const client = new Client(
    { name: 'butik-test', version: '1.0.0' },
    options.era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: options.key ? { headers: { authorization: `Bearer ${options.key}` } } : {},
  });
  await client.connect(transport);
  return client;
}

export const LEGACY_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

/** One raw JSON-RPC POST through inject; SSE answers are unpacked to their single JSON-RPC message. */
export async function rpc(
  t: TestApp,
  message: Record<string, unknown>,
  headers: Record<string, string> = LEGACY_HEADERS,
  ip = '127.0.0.1',
): Promise<CallResult> {
  const response = await send(t, { method: 'POST', url: '/api/mcp', headers, payload: JSON.stringify(message), remoteAddress: ip });
  const type = String(response.headers['content-type'] ?? '');
  if (type.startsWith('text/event-stream') && typeof response.body === 'string') {
    const data = response.body.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6));
    const last = data.filter((line) => line.trim() !== '').at(-1);
    return { ...response, body: last === undefined ? undefined : JSON.parse(last) };
  }
  return response;
}
