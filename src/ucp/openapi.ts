import { z } from 'zod';
import { UCP_SCOPE } from '../access/scopes.ts';
import type { OpenApiExtension } from '../deps.ts';
import { CartRequest } from './cart/cart-sessions.ts';
import { GetProductRequest, LookupRequest, SearchRequest } from './catalog/catalog-operations.ts';
import { UpdateOrder } from './webhooks/orders.ts';
import { CompleteCheckout, CreateCheckout, UpdateCheckout } from './checkout/schemas.ts';

type Json = Record<string, unknown>;

const schemaOf = (schema: z.ZodType): Json => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' });
  return rest;
};

const CHECKOUT = { $ref: 'https://ucp.dev/schemas/shopping/checkout_resp.json' };
const ORDER = { $ref: 'https://ucp.dev/schemas/shopping/order.json' };
const SEARCH = { $ref: 'https://ucp.dev/schemas/shopping/catalog_search.json#/$defs/search_response' };
const LOOKUP = { $ref: 'https://ucp.dev/schemas/shopping/catalog_lookup.json#/$defs/lookup_response' };
const PRODUCT = { $ref: 'https://ucp.dev/schemas/shopping/catalog_lookup.json#/$defs/get_product_response' };
const CART = { $ref: 'https://ucp.dev/schemas/shopping/cart.json' };
/** Catalog and cart answer every failure in 2026-04-08's structure; business outcomes are 200 with it. */
const SHOPPING_ERROR = { $ref: 'https://ucp.dev/schemas/shopping/types/error_response.json' };

const ERROR: Json = {
  type: 'object',
  description: 'The UCP error structure of 2026-01-11 and 2026-01-23, with the samples\' `code` and `detail` (the first message\'s content) beside it. '
    + 'From 2026-04-08 on a refusal is `{code, content}` and a business outcome (unknown item, stock) is 200 with `ucp.status` "error" and `messages`.',
  required: ['status', 'messages', 'code', 'detail'],
  properties: {
    status: { const: 'requires_escalation' },
    messages: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'code', 'content', 'severity'],
        properties: {
          type: { const: 'error' }, code: { type: 'string' }, content: { type: 'string' },
          severity: { enum: ['recoverable', 'requires_buyer_input', 'requires_buyer_review'] },
        },
      },
    },
    code: { type: 'string', examples: ['RESOURCE_NOT_FOUND', 'OUT_OF_STOCK', 'PAYMENT_FAILED', 'VERSION_UNSUPPORTED'] },
    detail: { type: 'string' },
  },
};

const HEADERS: Json[] = [
  { name: 'UCP-Agent', in: 'header', required: true, description: 'RFC 8941 dictionary naming the platform: profile="https://platform.example/profile", optionally version="2026-04-08" (else the profile\'s version). Versions served: 2026-04-08, 2026-01-23, 2026-01-11; others are refused.', schema: { type: 'string' } },
  { name: 'Request-Id', in: 'header', required: false, description: 'For tracing; accepted, not interpreted.', schema: { type: 'string' } },
  { name: 'Request-Signature', in: 'header', required: false, description: 'Accepted; 2026-01-11 defines no format to verify on requests.', schema: { type: 'string' } },
  { name: 'Signature-Input', in: 'header', required: false, description: 'RFC 9421: the signed components and the keyid of a key in the platform profile\'s signing_keys. Required in live mode; checked whenever sent.', schema: { type: 'string' } },
  { name: 'Signature', in: 'header', required: false, description: 'RFC 9421: the ECDSA signature (r‖s) named in Signature-Input.', schema: { type: 'string' } },
  { name: 'Content-Digest', in: 'header', required: false, description: 'RFC 9530: sha-256 of the exact body bytes; a signed request with a body carries it.', schema: { type: 'string' } },
];
const IDEMPOTENCY: Json = {
  name: 'Idempotency-Key', in: 'header', required: false,
  description: 'The same key and body within 24 h answers what the first call did; another body → 409. Scoped per platform.', schema: { type: 'string' },
};
const ID: Json = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

const CHECKOUT_FAILURES: Record<number, string> = {
  400: 'Invalid request: unknown item, stock, currency, not ready, unsupported handler', 402: 'Payment declined', 403: 'Forbidden',
  404: 'Not found', 409: 'Session ended, stock gone, idempotency conflict', 422: 'Schema violation', 429: 'Rate limited (policy ucp)',
};
const SHOPPING_FAILURES: Record<number, string> = {
  400: 'Invalid request: a broken body, no query nor filter, an unknown cursor, too many ids', 409: 'Idempotency key reused with another body',
  422: 'Unsupported version', 429: 'Rate limited (policy ucp)',
};

const failures = (kind: 'checkout' | 'shopping', statuses: number[]): Json => Object.fromEntries(statuses.map((status) => [status, {
  description: (kind === 'checkout' ? CHECKOUT_FAILURES : SHOPPING_FAILURES)[status] ?? 'Failure',
  content: { 'application/json': { schema: kind === 'checkout' ? { $ref: '#/components/schemas/UcpError' } : SHOPPING_ERROR } },
}]));

type OperationFields = {
  body?: z.ZodType; idempotent?: boolean; path?: boolean; ok: Json; status?: number; errors: number[];
  /** Catalog and cart (2026-04-08 only): their error structure, and a business outcome answered 200 with it. */
  shopping?: boolean;
};

function operationFor(auth: 'open' | 'key', id: string, summary: string, fields: OperationFields): Json {
  return {
    operationId: `ucp_${id}`,
    summary,
    tags: ['ucp'],
    // Key mode: the key as Bearer (or in X-API-Key); open mode: guest checkout, no credentials.
    security: auth === 'key' ? [{ bearerAuth: [UCP_SCOPE] }] : [],
    parameters: [...(fields.path ? [ID] : []), ...HEADERS, ...(fields.idempotent ? [IDEMPOTENCY] : [])],
    ...(fields.body ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(fields.body) } } } } : {}),
    responses: {
      [fields.status ?? 200]: {
        description: fields.shopping ? `${summary}; a business outcome (not found, not sold) is this status with ucp.status "error" and messages` : summary,
        content: { 'application/json': { schema: fields.shopping ? { oneOf: [fields.ok, SHOPPING_ERROR] } : fields.ok } },
      },
      ...failures(fields.shopping ? 'shopping' : 'checkout', [...fields.errors, 429]),
    },
  };
}

/**
 * The UCP REST binding in Butik's OpenAPI document, when UCP is on: checkout and orders, catalog and carts. Request
 * bodies are the zod schemas the routes parse with; responses reference UCP's own schemas.
 */
export function ucpOpenApi(auth: 'open' | 'key'): OpenApiExtension {
  const operation = (id: string, summary: string, fields: OperationFields) => operationFor(auth, id, summary, fields);
  return {
    scopes: [UCP_SCOPE],
    tag: { name: 'ucp', description: 'Universal Commerce Protocol checkout for shopping agents (BUTIK_UCP_MODE test or live), answered in the version each request negotiates (2026-04-08, 2026-01-23 or 2026-01-11); catalog and carts in 2026-04-08; the same operations over MCP at /ucp/mcp.' },
    schemas: { UcpError: ERROR },
    paths: {
      '/checkout-sessions': {
        post: operation('create_checkout', 'Create a checkout session', { body: CreateCheckout, idempotent: true, ok: CHECKOUT, status: 201, errors: [400, 422] }),
      },
      '/checkout-sessions/{id}': {
        get: operation('get_checkout', 'Get a checkout session', { path: true, ok: CHECKOUT, errors: [404] }),
        put: operation('update_checkout', 'Update a checkout session', { path: true, body: UpdateCheckout, idempotent: true, ok: CHECKOUT, errors: [400, 404, 409, 422] }),
      },
      '/checkout-sessions/{id}/complete': {
        post: operation('complete_checkout', 'Complete a checkout session and place the order', {
          path: true, body: CompleteCheckout, idempotent: true, ok: CHECKOUT, errors: [400, 402, 404, 409, 422],
        }),
      },
      '/checkout-sessions/{id}/cancel': {
        post: operation('cancel_checkout', 'Cancel a checkout session', { path: true, idempotent: true, ok: CHECKOUT, errors: [404, 409] }),
      },
      '/orders/{id}': {
        get: operation('get_order', 'Get an order placed through UCP', { path: true, ok: ORDER, errors: [404] }),
        put: operation('update_order', 'Append fulfillment events and adjustments to an order', { path: true, body: UpdateOrder, idempotent: true, ok: ORDER, errors: [404, 422] }),
      },
      '/catalog/search': {
        post: operation('search_catalog', 'Search the catalog (2026-04-08)', { body: SearchRequest, ok: SEARCH, errors: [400, 422], shopping: true }),
      },
      '/catalog/lookup': {
        post: operation('lookup_catalog', 'Look products up by product id, variant id or handle (2026-04-08)', { body: LookupRequest, ok: LOOKUP, errors: [400, 422], shopping: true }),
      },
      '/catalog/product': {
        post: operation('get_product', 'Get one product with its variants (2026-04-08)', { body: GetProductRequest, ok: PRODUCT, errors: [400, 422], shopping: true }),
      },
      '/carts': {
        post: operation('create_cart', 'Create a cart (2026-04-08)', { body: CartRequest, idempotent: true, ok: CART, status: 201, errors: [400, 422], shopping: true }),
      },
      '/carts/{id}': {
        get: operation('get_cart', 'Get a cart (2026-04-08)', { path: true, ok: CART, errors: [400], shopping: true }),
        put: operation('update_cart', 'Replace a cart\'s lines, buyer and context (2026-04-08)', { path: true, body: CartRequest, idempotent: true, ok: CART, errors: [400, 409, 422], shopping: true }),
      },
      '/carts/{id}/cancel': {
        post: operation('cancel_cart', 'Cancel a cart (2026-04-08)', { path: true, idempotent: true, ok: CART, errors: [400, 409], shopping: true }),
      },
    },
  };
}
