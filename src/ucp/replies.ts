import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UcpError } from './core/errors.ts';
import { asUcpError } from './call/call.ts';
import type { UcpAnswer } from './call/call.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** An operation's answer on the REST binding, with Retry-After when waiting helps. */
export function sendAnswer(reply: FastifyReply, answer: UcpAnswer): FastifyReply {
  if (answer.retryAfter !== undefined) reply.header('retry-after', String(answer.retryAfter));
  return reply.code(answer.status).type(JSON_TYPE).send(answer.text);
}

/**
 * A failure of a REST call in UCP's terms: logged when it is the server's own, with Retry-After and a refused
 * buyer token's WWW-Authenticate set on the reply. The body is the route's to shape for its version.
 */
export function failureOf(request: FastifyRequest, reply: FastifyReply, error: unknown): UcpError {
  const failure = asUcpError(error);
  if (failure.status >= 500) request.log.error({ err: error }, 'ucp: request failed');
  if (failure.options.retryAfter !== undefined) reply.header('retry-after', String(failure.options.retryAfter));
  if (failure.options.challenge !== undefined) reply.header('www-authenticate', failure.options.challenge);
  return failure;
}
