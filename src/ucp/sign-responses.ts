import type { FastifyInstance } from 'fastify';
import type { Log } from '../log.ts';
import { signResponse } from './message-signatures.ts';
import type { SigningKeySource } from './signing-keys.ts';

/**
 * Signs every answer of the UCP routes as it leaves (RFC 9421: @status, Content-Digest, Content-Type, with
 * `created` and the key's id), so a platform can check that what it got is what the shop sent. An answer the
 * SDK streams (the MCP binding) has no body here to digest and goes unsigned; so does one whose key cannot be
 * read, with a warning, rather than failing an answer that is otherwise complete.
 */
export function signAnswers(app: FastifyInstance, signingKey: SigningKeySource, clock: () => Date, log: Log): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    if (payload !== null && payload !== undefined && typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
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
