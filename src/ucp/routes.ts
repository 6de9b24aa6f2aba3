import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { decodeJsonBody } from '../edge/json-body.ts';
import type { AppDeps } from '../deps.ts';
import { parseAgent } from './agent-header.ts';
import { callerAdmission } from './caller.ts';
import { errorBody, UcpError } from './errors.ts';
import { ucpMcpRoute } from './mcp.ts';
import { asUcpError, ucpOperations } from './operations.ts';
import type { OperationName, RunOperation } from './operations.ts';
import { businessProfile } from './profile.ts';
import { shoppingOperations } from './shopping-operations.ts';
import { shoppingRoutes } from './shopping-routes.ts';
import { secretMatches } from './simulation.ts';
import { publishedSigningKeys } from './signing-keys.ts';
import type { WebhookDelivery } from './webhooks.ts';

type IdRequest = FastifyRequest<{ Params: { id?: string } }>;
type BodyKind = 'json' | 'optional' | 'none';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * UCP (docs/ucp.md) under BASE_URL: discovery, the REST binding (checkout sessions and orders; catalog and carts in
 * shopping-routes.ts) and the MCP binding at /ucp/mcp. Every answer, errors included, is UCP's JSON; nothing here answers problem+json.
 */
export const ucpRoutes = async (app: FastifyInstance, { deps, delivery }: { deps: AppDeps; delivery: WebhookDelivery }) => {
  const { config, database } = deps;
  const run = ucpOperations(deps, delivery, app.log);
  const admit = callerAdmission(config.ucp.auth, deps.gate);

  app.get('/.well-known/ucp', async (_request, reply) => {
    const keys = await publishedSigningKeys(database.db);
    return reply.header('cache-control', 'public, max-age=300').type(JSON_TYPE)
      .send(JSON.stringify(businessProfile(deps.baseUrl, config.ucp.paymentHandlers, keys)));
  });

  const route = (operation: OperationName, body: BodyKind, guard?: (request: IdRequest) => void) =>
    (request: IdRequest, reply: FastifyReply) => serve(deps, run, request, reply, { operation, body, guard, admit });

  app.post('/checkout-sessions', route('create_checkout', 'json'));
  app.get('/checkout-sessions/:id', route('get_checkout', 'none'));
  app.put('/checkout-sessions/:id', route('update_checkout', 'json'));
  app.post('/checkout-sessions/:id/complete', route('complete_checkout', 'json'));
  app.post('/checkout-sessions/:id/cancel', route('cancel_checkout', 'optional'));
  app.get('/orders/:id', route('get_order', 'none'));
  app.put('/orders/:id', route('update_order', 'json'));
  const secret = config.ucp.simulationSecret;
  if (config.ucp.mode === 'test' && secret !== undefined) {
    app.post('/testing/simulate-shipping/:id', route('simulate_shipping', 'optional', (request) => {
      if (!secretMatches(request.headers['simulation-secret'], secret)) throw new UcpError(403, 'FORBIDDEN', 'Invalid Simulation Secret');
    }));
  }
  const shopping = shoppingOperations(deps);
  await app.register(shoppingRoutes, { deps, run: shopping, admit });
  await app.register(ucpMcpRoute, { deps, run, shopping, admit });
};

type Admission = ReturnType<typeof callerAdmission>;

/** One REST call: the `ucp` rate limit per IP, UCP-Agent, the caller (key mode: its key), the body, then the operation. */
async function serve(
  deps: AppDeps, run: RunOperation, request: IdRequest, reply: FastifyReply,
  served: { operation: OperationName; body: BodyKind; guard?: (request: IdRequest) => void; admit: Admission },
): Promise<FastifyReply> {
  reply.header('cache-control', 'no-store');
  try {
    const limit = await deps.gate.limiter.consume('ucp', request.ip);
    if (limit.exceeded) {
      throw new UcpError(429, 'RATE_LIMITED', `Too many requests; retry in ${limit.resetSeconds} seconds.`, { retryAfter: limit.resetSeconds });
    }
    const agent = parseAgent(request.headers['ucp-agent']);
    const caller = await served.admit(request.ip, request.headers);
    served.guard?.(request);
    const header = request.headers['idempotency-key'];
    const answer = await run({
      operation: served.operation,
      id: request.params.id ?? '',
      agent,
      caller,
      body: readBody(request, served.body),
      idempotencyKey: typeof header === 'string' && header.trim() !== '' ? header.trim() : undefined,
      requestId: request.id,
      log: request.log,
    });
    if (answer.retryAfter !== undefined) reply.header('retry-after', String(answer.retryAfter));
    return reply.code(answer.status).type(JSON_TYPE).send(answer.text);
  } catch (error) {
    const failure = asUcpError(error);
    if (failure.status >= 500) request.log.error({ err: error }, 'ucp: request failed');
    if (failure.options.retryAfter !== undefined) reply.header('retry-after', String(failure.options.retryAfter));
    return reply.code(failure.status).type(JSON_TYPE).send(JSON.stringify(errorBody(failure)));
  }
}

function readBody(request: FastifyRequest, kind: BodyKind): Record<string, unknown> {
  if (kind === 'none') return {};
  const text = typeof request.body === 'string' ? request.body : '';
  if (kind === 'optional' && text.trim() === '') return {};
  return decodeJsonBody(request);
}
