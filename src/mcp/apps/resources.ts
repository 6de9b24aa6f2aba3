import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import type { Tool } from '@modelcontextprotocol/server';
import { escapeHtml } from '../../edge/html/escape.ts';
import { viewScript } from './bundle.ts';
import { VIEW_CSS } from './view-css.ts';

export const PRODUCT_CARD_URI = 'ui://butik/product-card';
export const CART_URI = 'ui://butik/cart';

/** The MCP Apps views (docs/behaviour.md#mcp-apps): each a ui:// resource whose HTML draws one kind of tool result. */
export const APP_VIEWS = [
  { uri: PRODUCT_CARD_URI, name: 'product-card', title: 'Product card', entry: 'product-card.view.ts',
    description: 'Shows products.get and products.search results as product cards with price, stock and a link to the shop.' },
  { uri: CART_URI, name: 'cart', title: 'Cart', entry: 'cart.view.ts',
    description: 'Shows a cart tool\'s result: its lines, totals and, while the shop takes orders over UCP, a link to pay.' },
] as const;

type AppView = (typeof APP_VIEWS)[number];

/** The tools whose results a view draws. */
const VIEW_OF_TOOL: Readonly<Record<string, AppView['uri']>> = {
  'products.search': PRODUCT_CARD_URI,
  'products.get': PRODUCT_CARD_URI,
  'cart.create': CART_URI,
  'cart.get': CART_URI,
  'cart.set_item': CART_URI,
  'cart.apply_discount': CART_URI,
};

/**
 * A tool's listing with its view, if it has one: `_meta.ui.resourceUri` and the older flat key the SDK's
 * registerAppTool also sets, for hosts that read only that. Other members of `_meta` are kept.
 */
export function withAppView(listing: Tool): Tool {
  const uri = VIEW_OF_TOOL[listing.name];
  if (uri === undefined) return listing;
  return { ...listing, _meta: { ...listing._meta, ui: { resourceUri: uri }, [RESOURCE_URI_META_KEY]: uri } };
}

/** What a view needs to know of the shop, written on its <body>: where the shop is, its currency, whether it sells over UCP. */
export type ViewShop = { baseUrl: string; currency: string; checkout: boolean };

/**
 * The resource's `_meta.ui`: the views fetch nothing and open no frames; their images come from the shop
 * itself, so its origin is the one resource domain.
 */
function viewMeta(shop: ViewShop) {
  return { ui: { csp: { connectDomains: [], resourceDomains: [new URL(shop.baseUrl).origin] }, prefersBorder: true } };
}

export function listAppViews(shop: ViewShop) {
  return APP_VIEWS.map(({ uri, name, title, description }) => ({ uri, name, title, description, mimeType: RESOURCE_MIME_TYPE, _meta: viewMeta(shop) }));
}

/** The view's whole page: inline style and script, since the host renders it with no server of its own behind it. */
async function viewHtml(view: AppView, shop: ViewShop): Promise<string> {
  const script = await viewScript(view.entry);
  return `<!doctype html><html lang="da"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`
    + `<title>${escapeHtml(view.title)}</title><style>${VIEW_CSS}</style></head>`
    + `<body data-origin="${escapeHtml(new URL(shop.baseUrl).origin)}" data-currency="${escapeHtml(shop.currency)}" data-checkout="${shop.checkout ? 'on' : 'off'}">`
    + `<main id="view"><p class="note">Venter på svar …</p></main><script type="module">${script}</script></body></html>`;
}

/** resources/read of a view, or undefined for a URI that names none. */
export async function readAppView(uri: string, shop: ViewShop) {
  const view = APP_VIEWS.find((candidate) => candidate.uri === uri);
  if (!view) return undefined;
  return { contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: await viewHtml(view, shop), _meta: viewMeta(shop) }] };
}
