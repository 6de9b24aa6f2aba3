/**
 * The one table of problem codes (docs/behaviour.md#errors). Every failure the service answers names one of these;
 * the HTTP status, the title, the /problems/<code> page and the OpenAPI document all come from here.
 */
type ProblemEntry = {
  status: number;
  title: string;
  resolution: string;
  /** The same advice in MCP's terms, where it differs: a tools/call result has no headers to read or set. */
  mcpResolution?: string;
};

export const PROBLEMS = {
  invalid_json: {
    status: 400,
    title: 'Request body is not valid JSON',
    resolution: 'Send a JSON object as the body with Content-Type: application/json. A tool without parameters takes {}.',
  },
  validation_failed: {
    status: 400,
    title: 'Request does not match the tool schema',
    resolution: 'Fix the fields listed in errors[] (path and message) and send the request again. The tool\'s input schema is in the OpenAPI document.',
    mcpResolution: 'Fix the arguments listed in errors[] (path and message) and call the tool again; see this tool\'s inputSchema in tools/list.',
  },
  unauthorized: {
    status: 401,
    title: 'Authentication required',
    resolution: 'Send a valid API key as "Authorization: Bearer bk_…". Ask the shop operator for a key with the scope this tool needs, or use an anonymous tool.',
  },
  insufficient_scope: {
    status: 403,
    title: 'API key lacks the required scope',
    resolution: 'Use a key that holds the scope named in detail, or ask the shop operator to issue one; an OAuth host authorizes again asking for that scope (WWW-Authenticate names it). Do not retry with the same key or token.',
  },
  agent_paused: {
    status: 403,
    title: 'Agent paused by a person',
    resolution: 'A person at the shop paused this agent (its API key or OAuth application); every call is refused until the shop owner resumes it in the console (/admin/agents) or with "butik keys resume" / "butik oauth resume". Do not retry: tell the person you act for, and wait until they have resumed you.',
  },
  origin_not_allowed: {
    status: 403,
    title: 'Origin not allowed',
    resolution: 'Call the MCP endpoint from the service\'s own origin or from a server-side client (which sends no Origin header), or ask the operator to add your origin to BUTIK_ALLOWED_ORIGINS.',
  },
  unknown_tool: {
    status: 404,
    title: 'Unknown tool',
    resolution: 'Check the tool name against the OpenAPI document at /api/v1/openapi.json; names look like products.search.',
  },
  not_found: {
    status: 404,
    title: 'Not found',
    resolution: 'Check the identifier or slug; list the resource (for example products.search or orders.list) to find existing ones.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    resolution: 'Call tools with POST and a JSON body.',
  },
  request_timeout: {
    status: 408,
    title: 'Request took too long to arrive',
    resolution: 'Send the whole request (headers and body) promptly; the connection was closed. Retry on a new connection.',
  },
  already_exists: {
    status: 409,
    title: 'Already exists',
    resolution: 'Choose another slug or code, or update the existing resource instead of creating it.',
  },
  conflict: {
    status: 409,
    title: 'Changed or decided meanwhile',
    resolution: 'The record a held call would change was changed since the call was held, or the approval was already decided: read the record again and, if the change is still wanted, make the call again (it will be held for a new approval).',
  },
  idempotency_key_in_use: {
    status: 409,
    title: 'A request with this idempotency key is still running',
    resolution: 'Wait a moment and send the same request again with the same Idempotency-Key to receive its stored result.',
    mcpResolution: 'Wait a few seconds and call the tool again with the same arguments and the same _meta["butik/idempotencyKey"] to receive its stored result.',
  },
  precondition_failed: {
    status: 412,
    title: 'The record changed since you read it',
    resolution: 'Nothing was written. Read the record again with its .get tool (current holds it as it is now), re-apply your change to it, and send the update again with the new ETag in If-Match.',
    mcpResolution: 'Nothing was written. Read the record again with its .get tool (current holds it as it is now), re-apply your change to it, and call the update again with the new _meta["butik/etag"] in _meta["butik/ifMatch"].',
  },
  request_headers_too_large: {
    status: 431,
    title: 'Request headers too large',
    resolution: 'Send fewer or shorter headers (cookies, tokens); all request headers together must stay under 16 KiB.',
  },
  payload_too_large: {
    status: 413,
    title: 'Request body too large',
    resolution: 'Keep the request body under 1 MiB.',
  },
  slug_immutable: {
    status: 422,
    title: 'The slug cannot be changed',
    resolution: 'Remove slug from patch. To use another slug, create a new resource and delete the old one.',
  },
  category_not_empty: {
    status: 422,
    title: 'Category still has products',
    resolution: 'Move or delete the products in this category first (products.update with another category, or products.delete), then delete the category.',
  },
  last_owner: {
    status: 422,
    title: 'The shop would have no owner',
    resolution: 'Make another person owner first (the Staff page, or "butik staff role EMAIL --role owner"), then change or remove this one.',
  },
  illegal_transition: {
    status: 422,
    title: 'Illegal order status transition',
    resolution: 'Choose one of legalNextStatuses (also named in detail), or leave the order as it is.',
  },
  refund_exceeds_remaining: {
    status: 422,
    title: 'Refund is more than what is left to refund',
    resolution: 'Refund at most the order\'s total minus its earlier refunds (orders.get shows totalDkk and refunds), or leave amount out to refund all that is left.',
  },
  refund_restock_invalid: {
    status: 422,
    title: 'Lines to restock do not match the order',
    resolution: 'Name only products of this order (by productId or sku, as orders.get shows its items), each at most the quantity not yet put back by earlier refunds.',
  },
  payment_refund_failed: {
    status: 502,
    title: 'The payment processor did not give the money back',
    resolution: 'Nothing was recorded and the order is unchanged. Try again later; if it keeps failing, refund at the payment processor and record it with orders.update_status.',
  },
  out_of_stock: {
    status: 422,
    title: 'Not enough stock',
    resolution: 'For each line in shortLines, lower the quantity to at most available with cart.set_item (0 removes it), then check out again.',
  },
  stock_below_zero: {
    status: 422,
    title: 'Stock cannot go below zero',
    resolution: 'Read the product\'s stock with products.get and take away at most that many, or set the exact figure with products.update.',
  },
  discount_not_applicable: {
    status: 422,
    title: 'Discount code cannot be used',
    resolution: 'See reason: unknown_code, inactive, expired or usage_limit_reached. Remove the code or use another one.',
  },
  cart_closed: {
    status: 422,
    title: 'Cart is already checked out',
    resolution: 'Create a new cart with cart.create; a cart can be checked out only once.',
  },
  cart_empty: {
    status: 422,
    title: 'Cart is empty',
    resolution: 'Add at least one product with cart.set_item before checking out.',
  },
  shipping_unavailable: {
    status: 422,
    title: 'No shipping to this destination',
    resolution: 'The shop has no shipping rate for the country in detail. Check out with another shipping.country, or ask the shop owner to add a rate for it (or a default rate) with shipping.set_rate.',
  },
  not_revertible: {
    status: 422,
    title: 'Audit entry cannot be reverted',
    resolution: 'Only the latest change of a catalog, content or discount resource that has not been reverted can be undone. Make the change you want with the resource\'s own tool instead.',
  },
  feature_disabled: {
    status: 422,
    title: 'Feature is switched off',
    resolution: 'The shop operator has switched this feature off; features.list shows the flags. Try again later or ask the operator.',
  },
  idempotency_key_reused: {
    status: 422,
    title: 'Idempotency key was used for another request',
    resolution: 'Use a new Idempotency-Key for a different tool or body; reuse a key only to retry the very same request.',
    mcpResolution: 'Use a new _meta["butik/idempotencyKey"] for a different tool or arguments; reuse a key only to retry the very same call.',
  },
  rate_limited: {
    status: 429,
    title: 'Too many requests',
    resolution: 'Wait the number of seconds in Retry-After before the next request, and spread requests out.',
  },
  internal_error: {
    status: 500,
    title: 'Internal error',
    resolution: 'Retry later with the same Idempotency-Key; if it persists, report the request id in instance to the shop operator.',
    mcpResolution: 'Retry later with the same _meta["butik/idempotencyKey"]; if it persists, report the request id in instance to the shop operator.',
  },
  service_unavailable: {
    status: 503,
    title: 'Service temporarily unavailable',
    resolution: 'Wait the number of seconds in Retry-After, then send the same request again (with the same Idempotency-Key for a write). A write answered with this problem was not applied.',
    mcpResolution: 'Wait a few seconds, then call the tool again (with the same _meta["butik/idempotencyKey"] for a write). A write answered with this problem was not applied.',
  },
} as const satisfies Record<string, ProblemEntry>;

export type ProblemCode = keyof typeof PROBLEMS;

export const PROBLEM_CODES = Object.keys(PROBLEMS) as ProblemCode[];

export function isProblemCode(value: string): value is ProblemCode {
  return Object.hasOwn(PROBLEMS, value);
}
