import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { admit } from '../access/admit.ts';
import { createKey, listKeys, revokeKey, rotateKey } from '../access/api-keys.ts';
import { rateLimitHeaders } from '../access/rate-limit.ts';
import { errorForLog } from '../db/errors.ts';
import { asToolError } from '../errors/to-problem.ts';
import { ToolError } from '../errors/tool-error.ts';
import { CreateKeyInput } from '../schema/api-key.ts';
import { unstorableTextErrors } from '../schema/storable-text.ts';
import { parseInput } from '../tools/invoke.ts';
import { decodeJsonBody } from './json-body.ts';
import { sendProblem } from './problem-reply.ts';

type Handler = (request: FastifyRequest<{ Params: { id: string } }>) => Promise<{ status: number; result: unknown }>;

/**
 * Key management, REST only and master key only (CONTRACT §2): a scoped key can never mint keys,
 * and no MCP tool exposes these operations.
 */
export function registerKeysRoutes(app: FastifyInstance): void {
  const route = (handler: Handler) => async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    const { butik } = request.server;
    const admission = await admit(butik.gate, { ip: request.ip, authorization: request.headers.authorization });
    const headers = rateLimitHeaders(admission.rate, butik.config.rateWindowSeconds);
    if (!admission.ok) return sendProblem(request, reply, admission.error, headers);
    if (admission.actor.kind !== 'master') {
      const error = admission.actor.kind === 'anonymous'
        ? new ToolError('unauthorized', 'Key management needs the master key.')
        : new ToolError('insufficient_scope', 'Only the master key manages API keys.', { scope: 'master' });
      return sendProblem(request, reply, error, headers);
    }
    try {
      const { status, result } = await handler(request);
      return reply.code(status).headers(headers).send({ ok: true, result });
    } catch (error) {
      const toolError = asToolError(error);
      if (!(error instanceof ToolError)) request.log.error({ err: errorForLog(error) }, 'key management failed');
      return sendProblem(request, reply, toolError, headers);
    }
  };

  app.post('/api/v1/keys', route(async (request) => {
    const { name, scopes, expiresAt } = parseInput(CreateKeyInput, decodeJsonBody(request));
    const result = await createKey(request.server.butik.runtime.db, {
      name, scopes, expiresAt: expiresAt ? new Date(expiresAt) : undefined,
    });
    return { status: 201, result };
  }));
  app.get('/api/v1/keys', route(async (request) => ({ status: 200, result: await listKeys(request.server.butik.runtime.db) })));
  app.post('/api/v1/keys/:id/rotate', route(async (request) => ({
    status: 200,
    result: await rotateKey(request.server.butik.runtime.db, keyId(request), request.server.butik.gate.authenticator.forget),
  })));
  app.delete('/api/v1/keys/:id', route(async (request) => {
    const { runtime: { db, clock }, gate } = request.server.butik;
    return { status: 200, result: await revokeKey(db, keyId(request), clock(), gate.authenticator.forget) };
  }));
}

/** An id the database could not even compare (a NUL, half a surrogate) names no key. */
function keyId(request: FastifyRequest<{ Params: { id: string } }>): string {
  const { id } = request.params;
  if (unstorableTextErrors(id).length > 0) throw new ToolError('not_found', 'No API key has this id: it contains characters no id can hold.');
  return id;
}
