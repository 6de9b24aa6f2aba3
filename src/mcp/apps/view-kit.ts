// Runs in the host's sandboxed iframe, not in Butik: bundled into the app resource's HTML (bundle.ts).
import { App } from '@modelcontextprotocol/ext-apps';
import { formatMinorUnits } from '../../domain/money-format.ts';

/** What the resource's HTML says about the shop (resources.ts writes it on <body>): no shop data, only where it is. */
export type ShopFacts = { origin: string; currency: string; checkout: boolean };

function readShop(): ShopFacts {
  const { origin = '', currency = 'DKK', checkout } = document.body.dataset;
  return { origin, currency, checkout: checkout === 'on' };
}

/** Prices as the storefront shows them: Danish, in the shop's currency. */
export function price(minor: number, shop: ShopFacts): string {
  return formatMinorUnits(minor, shop.currency, 'da-DK');
}

/** An element with a class and children (text or elements); enough for a card, no framework. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, ...children: Array<Node | string>): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  node.append(...children);
  return node;
}

/** A storefront URL for a path, or undefined for anything that is not the shop's own page. */
export function shopUrl(path: string, shop: ShopFacts): string | undefined {
  try {
    const url = new URL(path, shop.origin);
    return url.origin === new URL(shop.origin).origin ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A link that opens in the person's browser. The sandbox may forbid the iframe to navigate or open a window,
 * so the click asks the host (ui/open-link); the href stays for what a person sees on hover and for assistive tools.
 */
export function link(app: App, href: string, className: string, text: string): HTMLAnchorElement {
  const anchor = el('a', className, text);
  anchor.href = href;
  anchor.target = '_blank';
  anchor.rel = 'noopener';
  anchor.addEventListener('click', (event) => {
    event.preventDefault();
    void app.openLink({ url: href });
  });
  return anchor;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Connects to the host and draws each tool result it sends into <main>. A result the view cannot read (an error,
 * a held call) shows the tool's own text, so the person still sees what the model saw.
 */
export function startView(name: string, render: (result: unknown, shop: ShopFacts, app: App) => Node[] | undefined): void {
  const shop = readShop();
  const main = document.getElementById('view');
  if (!main) return;
  const app = new App({ name, version: '1.0.0' });
  app.ontoolresult = ({ structuredContent, content, isError }) => {
    const drawn = isError ? undefined : render(structuredContent, shop, app);
    const text = (content ?? []).map((block) => (block.type === 'text' ? block.text : '')).join('\n');
    main.replaceChildren(...(drawn ?? [el('p', 'note', text || 'Intet at vise.')]));
  };
  void app.connect();
}
