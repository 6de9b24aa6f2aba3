import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A strong entity tag that is a hash of the body: it changes exactly when the bytes do. */
export function entityTag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/**
 * Sets the ETag and answers 304 when the client already holds it. Hand-written rather than @fastify/etag,
 * which compares If-None-Match as one exact string: RFC 9110 §13.1.2 also allows a list of tags and "*",
 * compared weakly, and caches do send lists.
 */
export function sendTagged(request: FastifyRequest, reply: FastifyReply, body: string, etag = entityTag(body)): FastifyReply {
  reply.header('etag', etag);
  if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.send(body);
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
