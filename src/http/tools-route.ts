import type { FastifyReply, FastifyRequest } from 'fastify';
import { answerText, runCall } from '../calls/run-call.ts';
import { parseIdempotencyKey } from '../calls/idempotency-key.ts';
import { parseIfMatch, quoteEtag } from '../calls/if-match.ts';
import { admitRequest } from '../edge/admission.ts';
import { decodeJsonBody } from '../edge/json-body.ts';
import { PROBLEM_JSON, sendProblem } from '../edge/problem-reply.ts';
import { asToolError } from '../errors/to-problem.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { RoutePlugin } from '../deps.ts';
import { authorizeTool } from '../tools/invoke.ts';
import { deprecationHeaders } from './deprecation.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

type Params = { name: string };

/** POST /api/v1/tools/<name>: every tool of the registry, one route (docs/behaviour.md#calling-a-tool). */
export const toolsRoute: RoutePlugin = async (app, { deps }) => {
  app.post<{ Params: Params }>('/api/v1/tools/:name', handleToolCall);
  app.route<{ Params: Params }>({
    // Every other method Fastify routes (HEAD comes with GET): 405 + Allow: POST.
    method: app.supportedMethods.filter((method) => method !== 'POST' && method !== 'HEAD'),
    url: '/api/v1/tools/:name',
    handler: (request, reply) => {
      reply.header('allow', 'POST');
      return sendProblem(reply, new ToolError('method_not_allowed', `Use POST for ${request.url}, not ${request.method}.`), deps.baseUrl);
    },
  });

  async function handleToolCall(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) {
    const admitted = await admitRequest(deps, request, reply);
    if (!admitted) return reply;
    const tool = deps.registry.get(request.params.name);
    if (!tool) {
      const error = new ToolError('unknown_tool', `There is no tool named "${request.params.name}".`);
      return sendProblem(reply, error, deps.baseUrl, admitted.headers);
    }
    const headers = tool.deprecated ? { ...admitted.headers, ...deprecationHeaders(tool.deprecated) } : admitted.headers;
    let input: Record<string, unknown>;
    let idempotencyKey: string | undefined;
    let ifMatch: string[] | undefined;
    try {
      authorizeTool(tool, admitted.actor);
      input = decodeJsonBody(request);
      idempotencyKey = parseIdempotencyKey(request.headers['idempotency-key'], 'Idempotency-Key');
      ifMatch = parseIfMatch(request.headers['if-match'], 'If-Match');
    } catch (error) {
      return sendProblem(reply, asToolError(error), deps.baseUrl, headers);
    }

    const outcome = await runCall({
      runtime: deps.runtime,
      tool,
      actor: admitted.actor,
      input,
      channel: 'rest',
      requestId: request.id,
      log: request.log,
      idempotencyKey,
      ...(ifMatch !== undefined ? { ifMatch } : {}),
    });
    reply.code(outcome.status).headers(headers).header('content-type', outcome.ok ? JSON_TYPE : PROBLEM_JSON);
    if (outcome.replayed) reply.header('idempotent-replayed', 'true');
    if (outcome.ok && outcome.etag !== undefined) reply.header('etag', quoteEtag(outcome.etag));
    if (!outcome.ok && outcome.retryAfter !== undefined) reply.header('retry-after', String(outcome.retryAfter));
    return reply.send(outcome.text ?? answerText(outcome));
  }
};
