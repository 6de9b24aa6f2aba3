import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { admit } from '../access/admit.ts';
import { IDEMPOTENCY_KEY } from '../access/idempotency.ts';
import type { IdempotentOutcome } from '../access/idempotency.ts';
import { rateLimitHeaders } from '../access/rate-limit.ts';
import { asToolError } from '../errors/to-problem.ts';
import { ToolError } from '../errors/tool-error.ts';
import { authorizeTool } from '../tools/invoke.ts';
import { deprecationHeaders } from './deprecation.ts';
import { decodeJsonBody } from './json-body.ts';
import { PROBLEM_JSON, sendProblem } from './problem-reply.ts';
import { loggedToolError, runToolCall } from './tool-call.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

type Params = { name: string };

/** POST /api/v1/tools/<name>: every tool of the registry, one route. SPEC §4.1. */
export function registerToolsRoute(app: FastifyInstance): void {
  app.post<{ Params: Params }>('/api/v1/tools/:name', handleToolCall);
  app.route<{ Params: Params }>({
    // Every other method Fastify routes (HEAD comes with GET): CONTRACT §4, 405 + Allow: POST.
    method: app.supportedMethods.filter((method) => method !== 'POST' && method !== 'HEAD'),
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

  let outcome: IdempotentOutcome;
  try {
    outcome = await runToolCall({
      runtime: butik.runtime,
      tool,
      actor: admission.actor,
      input: body,
      channel: 'rest',
      requestId: request.id,
      log: request.log,
      idempotencyKey,
    });
  } catch (error) {
    return sendProblem(request, reply, loggedToolError(request.log, error), headers);
  }
  reply.code(outcome.status).headers(headers).header('content-type', outcome.status < 400 ? JSON_TYPE : PROBLEM_JSON);
  if (outcome.replayed) reply.header('idempotent-replayed', 'true');
  if (outcome.retryAfter !== undefined) reply.header('retry-after', String(outcome.retryAfter));
  return reply.send(outcome.body);
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
