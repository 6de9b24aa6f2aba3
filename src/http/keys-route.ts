import type { FastifyReply, FastifyRequest } from 'fastify';
import { createKey, listKeys, revokeKey, rotateKey } from '../access/api-keys.ts';
import type { KeyAudit } from '../access/api-keys.ts';
import { loggedToolError } from '../calls/run-call.ts';
import { admitRequest } from '../edge/admission.ts';
import { decodeJsonBody } from '../edge/json-body.ts';
import { sendProblem } from '../edge/problem-reply.ts';
import { ToolError } from '../errors/tool-error.ts';
import { CreateKeyInput } from '../schema/api-key.ts';
import { unstorableTextErrors } from '../schema/storable-text.ts';
import type { RoutePlugin } from '../deps.ts';
import { parseInput } from '../tools/invoke.ts';

type Handler = (request: FastifyRequest<{ Params: { id: string } }>) => Promise<{ status: number; result: unknown }>;

/**
 * Key management, REST only and master key only: a scoped key can never mint keys,
 * and no MCP tool exposes these operations.
 */
export const keysRoutes: RoutePlugin = async (app, { deps }) => {
  const { runtime: { db, clock }, gate: { authenticator } } = deps;
  // Only the master key reaches the handlers below, so it is the actor of their audit entries.
  const byMaster = (): KeyAudit => ({ actor: { kind: 'master' }, channel: 'rest', at: clock() });
  const route = (handler: Handler) => async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    const admitted = await admitRequest(deps, request, reply);
    if (!admitted) return reply;
    const { actor, headers } = admitted;
    if (actor.kind !== 'master') {
      const error = actor.kind === 'anonymous'
        ? new ToolError('unauthorized', 'Key management needs the master key.')
        : new ToolError('insufficient_scope', 'Only the master key manages API keys.', { scope: 'master' });
      return sendProblem(reply, error, deps.baseUrl, headers);
    }
    try {
      const { status, result } = await handler(request);
      return reply.code(status).headers(headers).send({ ok: true, result });
    } catch (error) {
      return sendProblem(reply, loggedToolError(request.log, error), deps.baseUrl, headers);
    }
  };

  app.post('/api/v1/keys', route(async (request) => {
    const { name, scopes, expiresAt } = parseInput(CreateKeyInput, decodeJsonBody(request));
    const result = await createKey(db, { name, scopes, expiresAt: expiresAt ? new Date(expiresAt) : undefined }, byMaster());
    return { status: 201, result };
  }));
  app.get('/api/v1/keys', route(async () => ({ status: 200, result: await listKeys(db) })));
  app.post('/api/v1/keys/:id/rotate', route(async (request) => ({
    status: 200,
    result: await rotateKey(db, keyId(request), byMaster(), authenticator.forget),
  })));
  app.delete('/api/v1/keys/:id', route(async (request) => ({
    status: 200,
    result: await revokeKey(db, keyId(request), byMaster(), authenticator.forget),
  })));
};

/** An id the database could not even compare (a NUL, half a surrogate) names no key. */
function keyId(request: FastifyRequest<{ Params: { id: string } }>): string {
  const { id } = request.params;
  if (unstorableTextErrors(id).length > 0) throw new ToolError('not_found', 'No API key has this id: it contains characters no id can hold.');
  return id;
}
