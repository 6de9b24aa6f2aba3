import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { runIdempotent } from '../calls/idempotency.ts';
import type { StoredAnswer } from '../calls/idempotency.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { decodeJsonBody } from '../edge/json-body.ts';
import { ToolError } from '../errors/tool-error.ts';
import { unstorableTextErrors } from '../schema/storable-text.ts';
import type { Services } from '../services.ts';
import { parseAgent } from './agent-header.ts';
import type { Agent } from './agent-header.ts';
import { completeSession } from './complete.ts';
import { errorBody, UcpError } from './errors.ts';
import { readOrder, updateOrder, UpdateOrder } from './orders.ts';
import { platformProfiles } from './platform-profile.ts';
import type { PlatformProfile, ProfileReader } from './platform-profile.ts';
import { businessProfile } from './profile.ts';
import { CompleteCheckout, CreateCheckout, UpdateCheckout } from './schemas.ts';
import { secretMatches, simulateShipping } from './simulation.ts';
import { cancelSession, createSession, readSession, updateSession } from './sessions.ts';
import type { WriteSettings } from './sessions.ts';
import { publishedSigningKeys } from './signing-keys.ts';
import type { WebhookDelivery } from './webhooks.ts';

type Call = { id: string; agent: Agent; profile: PlatformProfile; body: Record<string, unknown>; settings: WriteSettings; idempotencyKey: string | undefined; request: FastifyRequest };
type Operation = (call: Call) => Promise<{ status: number; body: unknown }>;
type IdRequest = FastifyRequest<{ Params: { id?: string } }>;

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The UCP REST binding (issue 17), under BASE_URL: discovery, checkout sessions and orders. Every answer,
 * errors included, is UCP's JSON; nothing here answers problem+json.
 */
export const ucpRoutes = async (app: FastifyInstance, { services, delivery }: { services: Services; delivery: WebhookDelivery }) => {
  const { config, database } = services;
  const handlers = config.ucp.paymentHandlers;
  const profiles = platformProfiles(config.ucp.mode === 'live' ? 'live' : 'test', app.log);
  const settingsNow = (): WriteSettings => ({
    handlers, baseUrl: services.baseUrl, now: services.runtime.clock(), savedAddresses: config.ucp.savedAddresses,
  });

  app.get('/.well-known/ucp', async (_request, reply) => {
    const keys = await publishedSigningKeys(database.db);
    return reply.header('cache-control', 'public, max-age=300').type(JSON_TYPE)
      .send(JSON.stringify(businessProfile(services.baseUrl, handlers, keys)));
  });

  const route = (operation: string, body: Served['body'], run: Operation) =>
    async (request: IdRequest, reply: FastifyReply) => serve(services, request, reply, { operation, body, run, settingsNow, profiles });
  const db = database.db;

  app.post('/checkout-sessions', route('create_checkout', 'json', async ({ agent, body, settings }) => ({
    status: 201, body: await createSession(db, parse(CreateCheckout, body), agent.profile, settings),
  })));
  app.get('/checkout-sessions/:id', route('get_checkout', 'none', async ({ id, settings }) => ({
    status: 200, body: await readSession(db, id, settings),
  })));
  app.put('/checkout-sessions/:id', route('update_checkout', 'json', async ({ id, body, settings }) => ({
    status: 200, body: await updateSession(db, id, parse(UpdateCheckout, body), settings),
  })));
  app.post('/checkout-sessions/:id/complete', route('complete_checkout', 'json', async ({ id, agent, profile, body, settings, idempotencyKey, request }) => {
    const completed = await completeSession(db, id, parse(CompleteCheckout, body), {
      ...settings, log: request.log, platform: agent.profile, idempotencyKey: idempotencyKey ?? request.id, webhookUrl: profile.webhookUrl,
    });
    // order_placed was queued with the order; it leaves now rather than at the next poll.
    void delivery.kick();
    return { status: 200, body: completed };
  }));
  app.post('/checkout-sessions/:id/cancel', route('cancel_checkout', 'optional', async ({ id, settings }) => ({
    status: 200, body: await cancelSession(db, id, settings),
  })));
  app.get('/orders/:id', route('get_order', 'none', async ({ id }) => ({ status: 200, body: await readOrder(db, id) })));
  const secret = config.ucp.simulationSecret;
  if (config.ucp.mode === 'test' && secret !== undefined) {
    app.post('/testing/simulate-shipping/:id', route('simulate_shipping', 'optional', async ({ id, request }) => {
      if (!secretMatches(request.headers['simulation-secret'], secret)) throw new UcpError(403, 'FORBIDDEN', 'Invalid Simulation Secret');
      const shipped = await simulateShipping(services, id, request.id);
      void delivery.kick();
      return { status: 200, body: shipped };
    }));
  }
  app.put('/orders/:id', route('update_order', 'json', async ({ id, body, settings }) => {
    const updated = await updateOrder(db, id, parse(UpdateOrder, body), settings.now);
    void delivery.kick();
    return { status: 200, body: updated };
  }));
};

/** Schema violations are 422, as the samples' validation answers them; the first issue names the member. */
function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const unstorable = unstorableTextErrors(body);
  if (unstorable[0]) throw new UcpError(422, 'INVALID_REQUEST', `Invalid request: ${unstorable[0].path}: ${unstorable[0].message}`);
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.length ? `${issue.path.map(String).join('.')}: ` : '';
  throw new UcpError(422, 'INVALID_REQUEST', `Invalid request: ${path}${issue?.message ?? 'the body does not match the schema'}`);
}

type Served = { operation: string; body: 'json' | 'optional' | 'none'; run: Operation; settingsNow: () => WriteSettings; profiles: ProfileReader };

/**
 * One UCP call: the `ucp` rate limit per IP, UCP-Agent, the body, then the operation, run once per
 * Idempotency-Key and platform (checked before the body is validated, so a replay answers what the first call did).
 */
async function serve(services: Services, request: IdRequest, reply: FastifyReply, served: Served): Promise<FastifyReply> {
  reply.header('cache-control', 'no-store');
  try {
    const limit = await services.gate.limiter.consume('ucp', request.ip);
    if (limit.exceeded) {
      throw new UcpError(429, 'RATE_LIMITED', `Too many requests; retry in ${limit.resetSeconds} seconds.`, { retryAfter: limit.resetSeconds });
    }
    const agent = parseAgent(request.headers['ucp-agent']);
    const id = request.params.id ?? '';
    const body = readBody(request, served.body);
    const header = request.headers['idempotency-key'];
    const idempotencyKey = typeof header === 'string' && header.trim() !== '' ? header.trim() : undefined;
    const execute = async (): Promise<StoredAnswer> => {
      try {
        const profile = await served.profiles(agent.profile);
        const settings = { ...served.settingsNow(), platformCapabilities: profile.capabilities };
        const answer = await served.run({ id, agent, profile, body, settings, idempotencyKey, request });
        return { status: answer.status, text: JSON.stringify(answer.body) };
      } catch (error) {
        if (error instanceof UcpError) return { status: error.status, text: JSON.stringify(errorBody(error)) };
        throw error;
      }
    };
    const answer = idempotencyKey && served.body !== 'none'
      ? await runIdempotent(services.database.db, {
        caller: `ucp:${agent.profile}`, key: idempotencyKey, tool: `ucp.${served.operation}/${id}`, body, now: services.runtime.clock(),
      }, execute, (stored) => stored)
      : await execute();
    return reply.code(answer.status).type(JSON_TYPE).send(answer.text);
  } catch (error) {
    const failure = asUcpError(error);
    if (failure.status >= 500) request.log.error({ err: error }, 'ucp: request failed');
    if (failure.options.retryAfter !== undefined) reply.header('retry-after', String(failure.options.retryAfter));
    return reply.code(failure.status).type(JSON_TYPE).send(JSON.stringify(errorBody(failure)));
  }
}

function readBody(request: FastifyRequest, kind: Served['body']): Record<string, unknown> {
  if (kind === 'none') return {};
  const text = typeof request.body === 'string' ? request.body : '';
  if (kind === 'optional' && text.trim() === '') return {};
  return decodeJsonBody(request);
}

function asUcpError(error: unknown): UcpError {
  if (error instanceof UcpError) return error;
  if (error instanceof ToolError) {
    switch (error.code) {
      case 'invalid_json':
        return new UcpError(400, 'INVALID_REQUEST', error.message);
      case 'idempotency_key_reused':
        return new UcpError(409, 'IDEMPOTENCY_CONFLICT', 'Idempotency key reused with different parameters');
      case 'idempotency_key_in_use':
        return new UcpError(409, 'IDEMPOTENCY_CONFLICT', error.message, { retryAfter: error.extras.retryAfter });
      default:
        break;
    }
  }
  if (isDatabaseUnavailable(error)) return new UcpError(503, 'SERVICE_UNAVAILABLE', 'The shop is briefly unavailable; retry shortly.', { retryAfter: 2 });
  return new UcpError(500, 'INTERNAL_ERROR', 'An unexpected error occurred; the request may be retried.');
}
