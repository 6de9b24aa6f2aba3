import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { CallToolRequest, CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { Log } from '../../log.ts';
import type { UcpCaller } from '../identity/caller.ts';
import { UcpError } from '../core/errors.ts';
import { MAX_LOOKUP_IDS } from '../catalog/catalog-operations.ts';
import { transportErrorBody } from '../catalog/shopping-answer.ts';
import { shoppingAgent } from '../catalog/shopping-agent.ts';
import type { RunShopping, ShoppingOperationName, UcpAnswer } from '../call/call.ts';

type Json = Record<string, unknown>;

const object = { type: 'object' };
const text = { type: 'string', minLength: 1, maxLength: 200 };
/** meta as mcp.openrpc.json has it: the platform's profile, and for writes an idempotency key. */
const META = {
  type: 'object',
  required: ['ucp-agent'],
  properties: {
    'ucp-agent': { type: 'object', required: ['profile'], properties: { profile: { type: 'string' }, version: { type: 'string' } } },
    'idempotency-key': { type: 'string', minLength: 1, maxLength: 255 },
  },
};
const FILTERS = {
  type: 'object',
  properties: {
    categories: { type: 'array', items: text, description: 'Category slugs (the `value` of a product\'s categories); any of them matches.' },
    price: { type: 'object', properties: { min: { type: 'integer', minimum: 0 }, max: { type: 'integer', minimum: 0 } }, description: 'Bounds in minor units of context.currency (the shop\'s).' },
  },
};
const CART = {
  type: 'object',
  required: ['line_items'],
  properties: {
    line_items: {
      type: 'array', maxItems: 100,
      items: { type: 'object', required: ['item', 'quantity'], properties: { item: { type: 'object', required: ['id'], properties: { id: text } }, quantity: { type: 'integer', minimum: 1 } } },
    },
    buyer: object,
    context: object,
  },
};

/**
 * What every tool answers, as far as a client needs to check it: the UCP envelope, and the rest open. A business
 * outcome (an unknown cart, say) is a result too, with `ucp.status: "error"` and `messages`.
 */
const ANSWER = { type: 'object', required: ['ucp'], properties: { ucp: object, messages: { type: 'array', items: object } } };

type ShoppingTool = { name: ShoppingOperationName; title: string; description: string; args: Json; required: string[]; annotations: Tool['annotations'] };

const reads = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const writes = (destructive: boolean, idempotent: boolean) => ({ readOnlyHint: false, destructiveHint: destructive, idempotentHint: idempotent, openWorldHint: false });
const cartId = { type: 'string', description: 'The cart id.' };

/** The tools of catalog/mcp.md and cart-mcp.md, their arguments as mcp.openrpc.json names them. */
const TOOLS: ShoppingTool[] = [
  {
    name: 'search_catalog', title: 'Search catalog',
    description: 'Search the catalog (UCP Catalog Search) as products.search does: Danish catalog, English shop words understood, '
      + 'strongest match first. Page with pagination.limit (default 10, at most 50) and the cursor of the previous answer.',
    args: {
      catalog: {
        type: 'object',
        properties: {
          query: { type: 'string', maxLength: 200 }, filters: FILTERS, context: object,
          pagination: { type: 'object', properties: { cursor: { type: 'string' }, limit: { type: 'integer', minimum: 1 } } },
        },
      },
    },
    required: ['catalog'], annotations: reads,
  },
  {
    name: 'lookup_catalog', title: 'Look up products',
    description: `Products by product id, variant id (SKU, else slug) or handle (UCP Catalog Lookup), at most ${MAX_LOOKUP_IDS} ids; `
      + 'each variant\'s inputs say which ids reached it; unknown ids come back as not_found messages.',
    args: { catalog: { type: 'object', required: ['ids'], properties: { ids: { type: 'array', minItems: 1, items: text }, filters: FILTERS, context: object } } },
    required: ['catalog'], annotations: reads,
  },
  {
    name: 'get_product', title: 'Get product',
    description: 'One product by product or variant id (UCP Get Product); unknown → ucp.status "error" with a not_found message.',
    args: { catalog: { type: 'object', required: ['id'], properties: { id: text, filters: FILTERS, context: object } } },
    required: ['catalog'], annotations: reads,
  },
  {
    name: 'create_cart', title: 'Create cart',
    description: 'Start a cart (UCP Create Cart): line items by variant id, each item once; totals are estimates, shipping is priced at checkout. '
      + 'Convert it with create_checkout and checkout.cart_id.',
    args: { cart: CART }, required: ['cart'], annotations: writes(false, false),
  },
  { name: 'get_cart', title: 'Get cart', description: 'Read a cart (UCP Get Cart).', args: { id: cartId }, required: ['id'], annotations: reads },
  {
    name: 'update_cart', title: 'Update cart',
    description: 'Replace a cart\'s contents (UCP Update Cart): send the whole cart. Refused while a checkout made from the cart is open.',
    args: { id: cartId, cart: CART }, required: ['id', 'cart'], annotations: writes(true, true),
  },
  {
    name: 'cancel_cart', title: 'Cancel cart', description: 'Cancel a cart (UCP Cancel Cart); it answers the cart as it was, then is not found.',
    args: { id: cartId }, required: ['id'], annotations: writes(true, true),
  },
];

const NAMES: ReadonlySet<string> = new Set(TOOLS.map((tool) => tool.name));
export const isShoppingTool = (name: string): name is ShoppingOperationName => NAMES.has(name);

/** tools/list entries, computed once. */
export const SHOPPING_TOOL_LISTING: Tool[] = TOOLS.map((tool) => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: { type: 'object', required: ['meta', ...tool.required], properties: { meta: META, ...tool.args } },
  outputSchema: { ...ANSWER, type: 'object' },
  annotations: { title: tool.title, ...tool.annotations },
}));

/** JSON-RPC codes of overview.md: -32001 for a profile or version refusal, -32000 for a refusal the caller must wait out or act on. */
const DISCOVERY = -32001;
const REFUSED = -32000;

function rpcError(answer: UcpAnswer): ProtocolError {
  const body = JSON.parse(answer.text) as { messages?: Array<{ code?: string; content?: string }> };
  const first = body.messages?.[0];
  const code = first?.code === 'version_unsupported' || first?.code === 'invalid_profile_url' ? DISCOVERY
    : answer.status === 400 || answer.status === 422 ? ProtocolErrorCode.InvalidParams
      : answer.status >= 500 && answer.status !== 503 ? ProtocolErrorCode.InternalError
        : REFUSED;
  return new ProtocolError(code, first?.content ?? 'UCP error', answer.retryAfter === undefined ? body : { ...body, retry_after: answer.retryAfter });
}

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export type ShoppingCallContext = { log: Log; caller: UcpCaller };

/** tools/call of a catalog or cart tool: meta["ucp-agent"] names the platform, then the same run as REST. */
export async function callShoppingTool(
  run: RunShopping, name: ShoppingOperationName, request: CallToolRequest, context: ShoppingCallContext,
): Promise<CallToolResult> {
  const args: Json = request.params.arguments ?? {};
  const meta = isRecord(args.meta) ? args.meta : {};
  const agentMeta = isRecord(meta['ucp-agent']) ? meta['ucp-agent'] : {};
  let agent;
  try {
    const profile = typeof agentMeta.profile === 'string' && agentMeta.profile !== '' ? agentMeta.profile : undefined;
    if (profile === undefined) throw new UcpError(400, 'INVALID_PROFILE_URL', 'Every call must name the platform profile in meta["ucp-agent"].profile.');
    const version = typeof agentMeta.version === 'string' ? `;version=${JSON.stringify(agentMeta.version)}` : '';
    agent = shoppingAgent(`profile=${JSON.stringify(profile)}${version}`);
  } catch (error) {
    if (!(error instanceof UcpError)) throw error;
    const capability = name.endsWith('_cart') ? 'dev.ucp.shopping.cart' : name === 'search_catalog' ? 'dev.ucp.shopping.catalog.search' : 'dev.ucp.shopping.catalog.lookup';
    throw rpcError({ status: error.status, text: JSON.stringify(transportErrorBody(capability, error)) });
  }
  const key = meta['idempotency-key'];
  const payload = name === 'create_cart' || name === 'update_cart' ? args.cart : args.catalog;
  const answer = await run({
    operation: name,
    id: typeof args.id === 'string' ? args.id : '',
    agent,
    caller: context.caller,
    body: isRecord(payload) ? payload : {},
    idempotencyKey: typeof key === 'string' && key !== '' ? key : undefined,
    log: context.log,
  });
  if (answer.status >= 400) throw rpcError(answer);
  return { content: [{ type: 'text', text: answer.text }], structuredContent: JSON.parse(answer.text) as Json };
}
