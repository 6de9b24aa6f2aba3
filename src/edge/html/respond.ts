import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendTagged } from '../etag.ts';
import { htmlHeaders } from './policy.ts';

export type Cached = {
  /** The Content-Type (HTML_TYPE, CSS_TYPE, an image type). */
  type: string;
  body: string;
  maxAgeSeconds: number;
  /** The Content-Security-Policy, from contentSecurityPolicy (or SVG_IMAGE_POLICY for a drawn image). */
  policy: string;
};

/**
 * A 200 with an ETag that is a hash of the body, answered 304 when the client already holds it
 * (If-None-Match), and a short public Cache-Control so edits show within the max age.
 */
export function sendCached(request: FastifyRequest, reply: FastifyReply, content: Cached): FastifyReply {
  reply.code(200)
    .header('content-type', content.type)
    .header('cache-control', `public, max-age=${content.maxAgeSeconds}`)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', content.policy);
  return sendTagged(request, reply, content.body);
}

/** An HTML page as it is, with its policy: for pages that change with every request or are cached in memory. */
export function sendHtml(reply: FastifyReply, page: { status?: number; body: string; policy: string; cacheControl?: string }): FastifyReply {
  reply.code(page.status ?? 200).headers(htmlHeaders(page.policy));
  if (page.cacheControl) reply.header('cache-control', page.cacheControl);
  return reply.send(page.body);
}
