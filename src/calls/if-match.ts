import { ToolError } from '../errors/tool-error.ts';

/** The wire form of a version token: an HTTP strong entity tag (RFC 9110 §8.8.3). */
export const quoteEtag = (token: string): string => `"${token}"`;

/**
 * The tokens of an If-Match header (or of MCP `_meta["butik/ifMatch"]`), or undefined when none was sent or `*`
 * (any current version) was. A weak tag never matches under If-Match's strong comparison, so it stays as
 * `W/…` and fails the check; an unquoted token is taken as is, for MCP clients that copy the bare value.
 */
export function parseIfMatch(value: unknown, where: string): string[] | undefined {
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value.join(',') : value;
  if (typeof text !== 'string' || text.trim() === '') {
    throw new ToolError('validation_failed', `${where} must be an entity tag as an ETag or butik/etag gave it, for example "\\"Xy3…\\"".`);
  }
  const tags = text.split(',').map((tag) => tag.trim()).filter((tag) => tag !== '');
  if (tags.includes('*')) return undefined;
  return tags.map((tag) => (tag.startsWith('"') && tag.endsWith('"') && tag.length >= 2 ? tag.slice(1, -1) : tag));
}
