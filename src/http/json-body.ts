import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ToolError } from '../errors/tool-error.ts';

/** CONTRACT §4: bodies over 1 MiB → 413 payload_too_large, the one check made before authentication. */
export const BODY_LIMIT = 1024 * 1024;
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Bodies are read as text and decoded by the route, after authentication, so that an anonymous call
 * to a private tool with a broken body still gets 401 first (CONTRACT §11).
 */
export function acceptRawBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, body, done) => done(null, body));
}

export function decodeJsonBody(request: FastifyRequest): Record<string, unknown> {
  const type = request.headers['content-type'];
  if (!type || !JSON_TYPE.test(type)) {
    throw new ToolError('invalid_json', `Content-Type must be application/json, not ${type ? `"${type}"` : 'missing'}.`);
  }
  const text = typeof request.body === 'string' ? request.body : '';
  if (text.trim() === '') throw new ToolError('invalid_json', 'The request body is empty; send a JSON object ({} for no parameters).');
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
