import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendTagged } from '../edge/etag.ts';

export const HTML_TYPE = 'text/html; charset=utf-8';

/** No script runs on the public pages; styles and images only from here (images also from http(s) hosts). */
const HTML_POLICY = "default-src 'none'; style-src 'self'; img-src 'self' https: http: data:; base-uri 'none'; "
  + "form-action 'none'; frame-ancestors 'none'";

export type Cached = { type: string; body: string; maxAgeSeconds: number; policy?: string };

/**
 * A 200 with an ETag that is a hash of the body, answered 304 when the client already holds it
 * (If-None-Match), and a short public Cache-Control so edits show within a minute.
 */
export function sendCached(request: FastifyRequest, reply: FastifyReply, content: Cached): FastifyReply {
  reply.code(200)
    .header('content-type', content.type)
    .header('cache-control', `public, max-age=${content.maxAgeSeconds}`)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', content.policy ?? HTML_POLICY);
  return sendTagged(request, reply, content.body);
}

/** The styled 404 page: HTML, never cached, so a page published a moment later shows at once. */
export function sendNotFoundPage(reply: FastifyReply, body: string): FastifyReply {
  return reply.code(404)
    .header('content-type', HTML_TYPE)
    .header('cache-control', 'no-cache')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', HTML_POLICY)
    .send(body);
}
