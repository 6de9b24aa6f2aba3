import { z } from 'zod';
import { unstorableTextErrors } from '../../schema/storable-text.ts';
import { UcpError } from '../core/errors.ts';

/**
 * The protocol version of catalog and cart (docs/ucp.md#catalog-and-cart). They exist only from this version on,
 * so they answer in its shapes whatever version a platform names, and refuse only a newer one.
 */
export const SHOPPING_VERSION = '2026-04-08';

export type ShoppingCapability = 'dev.ucp.shopping.catalog.search' | 'dev.ucp.shopping.catalog.lookup' | 'dev.ucp.shopping.cart';

/** The `ucp` member of an answer (ucp.json#/$defs/response_catalog_schema, response_cart_schema). */
export function envelope(capability: ShoppingCapability, status?: 'error') {
  return { version: SHOPPING_VERSION, ...(status ? { status } : {}), capabilities: { [capability]: [{ version: SHOPPING_VERSION }] } };
}

/**
 * A business outcome that is not the resource asked for (an unknown cart or product, an item that cannot be
 * sold): HTTP 200 with `ucp.status: "error"` and the reason in `messages`, as the catalog and cart bindings say.
 */
export class Outcome extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly options: { severity?: 'recoverable' | 'unrecoverable'; path?: string } = {},
  ) {
    super(message);
  }
}

export function outcomeBody(capability: ShoppingCapability, outcome: Outcome) {
  return {
    ucp: envelope(capability, 'error'),
    messages: [{
      type: 'error' as const, code: outcome.code, content: outcome.message, severity: outcome.options.severity ?? 'unrecoverable',
      ...(outcome.options.path ? { path: outcome.options.path } : {}),
    }],
  };
}

/**
 * A transport error (a broken request, a missing key, the rate limit, a fault) in the same error structure
 * (types/error_response.json), under the HTTP status that is its primary signal.
 */
export function transportErrorBody(capability: ShoppingCapability, error: UcpError) {
  return {
    ucp: envelope(capability, 'error'),
    messages: [{ type: 'error' as const, code: error.code.toLowerCase(), content: error.message, severity: error.options.severity ?? 'recoverable' }],
  };
}

export const invalid = (message: string) => new UcpError(400, 'INVALID_REQUEST', message);

/** A request body read as its schema, unknown members dropped; a violation is 400 naming the first member. */
export function parseRequest<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const unstorable = unstorableTextErrors(body);
  if (unstorable[0]) throw invalid(`Invalid request: ${unstorable[0].path}: ${unstorable[0].message}`);
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.length ? `${issue.path.map(String).join('.')}: ` : '';
  throw invalid(`Invalid request: ${path}${issue?.message ?? 'the body does not match the schema'}`);
}
