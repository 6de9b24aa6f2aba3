import { ToolError } from '../errors/tool-error.ts';

/** docs/behaviour.md#safe-retries: 1–255 printable ASCII characters. */
const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,255}$/;

/**
 * The one reading of an idempotency key, wherever the transport carries it: REST in the Idempotency-Key
 * header, MCP in `_meta`. `field` is how the caller names that place, so the error points at it.
 */
export function parseIdempotencyKey(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY.test(value)) {
    throw new ToolError('validation_failed', `${field} must be 1–255 printable ASCII characters.`, {
      errors: [{ path: field, message: 'expected 1–255 printable ASCII characters' }],
    });
  }
  return value;
}
