import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { callerId } from '../access/actor.ts';
import type { Actor } from '../access/actor.ts';
import { admit } from '../access/admit.ts';
import { IDEMPOTENCY_KEY, runIdempotent } from '../access/idempotency.ts';
import type { StoredResponse } from '../access/idempotency.ts';
import { rateLimitHeaders } from '../access/rate-limit.ts';
import { asToolError } from '../errors/to-problem.ts';
import { ToolError } from '../errors/tool-error.ts';
import { authorizeTool, invokeTool } from '../tools/invoke.ts';
import type { RegisteredTool } from '../tools/registry.ts';
import { deprecationHeaders } from './deprecation.ts';
import { decodeJsonBody } from './json-body.ts';
import { PROBLEM_JSON, problemBody, sendProblem } from './problem-reply.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

type Params = { name: string };

/** POST /api/v1/tools/<name>: every tool of the registry, one route. SPEC §4.1. */
export function registerToolsRoute(app: FastifyInstance): void {
  app.post<{ Params: Params }>('/api/v1/tools/:name', handleToolCall);
  app.route<{ Params: Params }>({
    method: ['GET', 'PUT', 'PATCH', 'DELETE'],
    url: '/api/v1/tools/:name',
    handler: (request, reply) => {
      reply.header('allow', 'POST');
      return sendProblem(request, reply, new ToolError('method_not_allowed', `Use POST for ${request.url}, not ${request.method}.`));
    },
  });
}

async function handleToolCall(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) {
  const { butik } = request.server;
  const admission = await admit(butik.gate, { ip: request.ip, authorization: request.headers.authorization });
  const rate = rateLimitHeaders(admission.rate, butik.config.rateWindowSeconds);
  if (!admission.ok) return sendProblem(request, reply, admission.error, rate);

  const tool = butik.registry.get(request.params.name);
  if (!tool) {
    return sendProblem(request, reply, new ToolError('unknown_tool', `There is no tool named "${request.params.name}".`), rate);
  }
  const headers = { ...rate, ...deprecationHeaders(tool.deprecated) };
  let body: Record<string, unknown>;
  let idempotencyKey: string | undefined;
  try {
    authorizeTool(tool, admission.actor);
    body = decodeJsonBody(request);
    idempotencyKey = readIdempotencyKey(request);
  } catch (error) {
    return sendProblem(request, reply, asToolError(error), headers);
  }

  const execute = () => executeTool(request, tool, admission.actor, body);
  let outcome: StoredResponse & { replayed?: boolean };
  try {
    outcome = idempotencyKey === undefined
      ? await execute()
      : await runIdempotent(butik.runtime.db, {
        caller: callerId(admission.actor),
        key: idempotencyKey,
        tool: tool.name,
        body,
        now: butik.runtime.clock(),
      }, execute);
  } catch (error) {
    return sendProblem(request, reply, logged(request, error), headers);
  }
  reply.code(outcome.status).headers(headers).header('content-type', outcome.status < 400 ? JSON_TYPE : PROBLEM_JSON);
  if (outcome.replayed) reply.header('idempotent-replayed', 'true');
  return reply.send(outcome.body);
}

async function executeTool(
  request: FastifyRequest,
  tool: RegisteredTool,
  actor: Actor,
  input: Record<string, unknown>,
): Promise<StoredResponse> {
  const { butik } = request.server;
  try {
    const result = await invokeTool(butik.runtime, { tool, input, actor, channel: 'rest', log: request.log });
    return { status: 200, body: JSON.stringify({ ok: true, result }) };
  } catch (error) {
    return problemBody(logged(request, error), butik.baseUrl, request.id);
  }
}

/** Unknown errors are logged here with the request id and leave as internal_error. STYLE §6. */
function logged(request: FastifyRequest, error: unknown): ToolError {
  const toolError = asToolError(error);
  if (toolError.code === 'internal_error' && !(error instanceof ToolError)) {
    request.log.error({ err: error }, 'tool call failed');
  }
  return toolError;
}

function readIdempotencyKey(request: FastifyRequest): string | undefined {
  const value = request.headers['idempotency-key'];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY.test(value)) {
    throw new ToolError('validation_failed', 'Idempotency-Key must be 1–255 printable ASCII characters.', {
      errors: [{ path: 'Idempotency-Key', message: 'expected 1–255 printable ASCII characters' }],
    });
  }
  return value;
}
