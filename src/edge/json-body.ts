import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BODY_LIMIT } from '../config.ts';
import { ToolError } from '../errors/tool-error.ts';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
/** No tool input nests anywhere near this deep; everything past it only exists to exhaust a stack. */
export const MAX_JSON_DEPTH = 64;

/**
 * Bodies are read as text and decoded by the route, after authentication, so that an anonymous call
 * to a private tool with a broken body still gets 401 first (docs/behaviour.md#order-of-checks).
 */
export function acceptRawBodies(app: FastifyInstance): void {
  const asText = (_request: FastifyRequest, body: string | Buffer, done: (error: null, body: string | Buffer) => void) => done(null, body);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, asText);
  // The same reader named for JSON too: Fastify remembers which parser a Content-Type header gets, but never
  // the catch-all, which it looks up again, header parsed, on every request.
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, asText);
}

export function decodeJsonBody(request: FastifyRequest): Record<string, unknown> {
  const type = request.headers['content-type'];
  if (!type || !JSON_TYPE.test(type)) {
    throw new ToolError('invalid_json', `Content-Type must be application/json, not ${type ? `"${type}"` : 'missing'}.`);
  }
  const text = typeof request.body === 'string' ? request.body : '';
  if (text.trim() === '') throw new ToolError('invalid_json', 'The request body is empty; send a JSON object ({} for no parameters).');
  assertJsonDepth(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ToolError('invalid_json', 'The request body is not valid JSON.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ToolError('invalid_json', 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

/**
 * Refuses JSON nested deeper than MAX_JSON_DEPTH before anything parses or walks it: the validators, the
 * idempotency hash and the MCP SDK all recurse, and a 200,000-level body would overflow their stacks. One
 * pass over the text, so the check itself cannot overflow.
 */
export function assertJsonDepth(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > MAX_JSON_DEPTH) {
        throw new ToolError('invalid_json', `The request body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels.`);
      }
    } else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
    }
  }
}
