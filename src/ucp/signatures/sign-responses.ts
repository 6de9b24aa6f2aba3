import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Log } from '../../log.ts';
import { signResponse } from './message-signatures.ts';
import type { SigningKeySource } from './signing-keys.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which answers of a UCP route are signed (signAnswers): every one unless the route says otherwise. */
    ucpAnswerSignature?: 'always' | 'when-platform-signs';
  }
}

/**
 * Route config for the catalog's read-only queries: UCP makes signing their answers optional, and each one is a
 * SHA-256 of a large body and an ECDSA signature. A platform that signs its request (every platform, wherever
 * signatures are required) gets the answer signed; one that does not, gets it unsigned.
 */
export const SIGNED_WHEN_PLATFORM_SIGNS = { ucpAnswerSignature: 'when-platform-signs' } as const;

const platformSigned = (request: FastifyRequest) =>
  request.headers.signature !== undefined || request.headers['signature-input'] !== undefined;

/**
 * Signs the answers of the UCP routes as they leave (RFC 9421: @status, Content-Digest, Content-Type, with
 * `created` and the key's id), so a platform can check that what it got is what the shop sent. An answer the
 * SDK streams (the MCP binding) has no body here to digest and goes unsigned; so does one whose key cannot be
 * read, with a warning, rather than failing an answer that is otherwise complete.
 */
export function signAnswers(app: FastifyInstance, signingKey: SigningKeySource, clock: () => Date, log: Log): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (payload !== null && payload !== undefined && typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (request.routeOptions.config.ucpAnswerSignature === 'when-platform-signs' && !platformSigned(request)) return payload;
    const type = reply.getHeader('content-type');
    try {
      reply.headers(await signResponse({
        status: reply.statusCode,
        contentType: typeof type === 'string' ? type : undefined,
        body: payload ?? '',
      }, await signingKey(), clock()));
    } catch (error) {
      log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'ucp: answer sent unsigned');
    }
    return payload;
  });
}
