import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { believesUnsignedClaims } from '../config.ts';
import { decodeJsonBody } from '../edge/json-body.ts';
import type { AppDeps } from '../deps.ts';
import { parseAgent } from './core/agent-header.ts';
import { callerAdmission } from './identity/caller.ts';
import { idempotencyKeyOf } from './replay-key.ts';
import { UcpError } from './core/errors.ts';
import type { BuyerLinking } from './identity/linked-buyer.ts';
import { ucpMcpRoute } from './mcp/mcp.ts';
import type { OperationName, RunOperation } from './call/call.ts';
import type { ProfileReader } from './signatures/platform-profile.ts';
import { businessProfile, VERSIONED_PROFILE_PATH } from './profile.ts';
import { failureOf, JSON_TYPE, sendAnswer } from './replies.ts';
import { presentError } from './checkout/shapes.ts';
import { signAnswers } from './signatures/sign-responses.ts';
import { shoppingOperations } from './shopping-operations.ts';
import { shoppingRoutes } from './shopping-routes.ts';
import { secretMatches } from './simulation.ts';
import { publishedSigningKeys } from './signatures/signing-keys.ts';
import type { SigningKeySource } from './signatures/signing-keys.ts';
import { requestVerifier } from './signatures/verify-request.ts';
import type { VerifyRequest } from './signatures/verify-request.ts';
import { isUcpVersion, servedVersions } from './core/versions.ts';
import type { UcpVersion } from './core/versions.ts';
import { ucpFaceSettings } from './face-settings.ts';

type IdRequest = FastifyRequest<{ Params: { id?: string } }>;
type BodyKind = 'json' | 'optional' | 'none';


/**
 * UCP (docs/ucp.md) under BASE_URL: discovery, the REST binding (checkout sessions and orders; catalog and carts in
 * shopping-routes.ts) and the MCP binding at /ucp/mcp. Every answer, errors included, is UCP's JSON; nothing here answers problem+json.
 */
export const ucpRoutes = async (
  app: FastifyInstance, { deps, run, profiles, keys, linking }: { deps: AppDeps; run: RunOperation; profiles: ProfileReader; keys: SigningKeySource; linking?: BuyerLinking },
) => {
  const { config, database } = deps;
  const clock = deps.runtime.clock;
  const trust = { platforms: config.ucp.trustedPlatforms, unsignedClaims: believesUnsignedClaims(config.ucp.mode, config.ucp.signatures) };
  const admit = callerAdmission(config.ucp.auth, deps.gate, trust, linking ? { linking, db: database.db } : undefined);
  const verify = requestVerifier({ policy: config.ucp.signatures, httpsOnly: config.ucp.mode === 'live', baseUrl: () => deps.baseUrl, profiles, clock });
  signAnswers(app, keys, clock, app.log);

  const { paymentHandlers, version: declared } = ucpFaceSettings(config.ucp);
  const profile = async (reply: FastifyReply, version: UcpVersion) => {
    const signingKeys = await publishedSigningKeys(database.db);
    const document = businessProfile(version, { baseUrl: deps.baseUrl, handlers: paymentHandlers, signingKeys, declared });
    return reply.header('cache-control', 'public, max-age=300').type(JSON_TYPE).send(JSON.stringify(document));
  };
  app.get('/.well-known/ucp', async (_request, reply) => profile(reply, declared));
  // The profiles of the older versions served, which the declared profile's supported_versions links to.
  app.get(VERSIONED_PROFILE_PATH, async (request: FastifyRequest<{ Params: { version: string } }>, reply) => {
    const { version } = request.params;
    if (isUcpVersion(version) && servedVersions(declared).includes(version)) return profile(reply, version);
    const { status, body } = presentError(new UcpError(404, 'RESOURCE_NOT_FOUND', `No profile for version ${version}`), declared, deps.baseUrl);
    return reply.code(status).type(JSON_TYPE).send(JSON.stringify(body));
  });

  const route = (operation: OperationName, body: BodyKind, guard?: (request: IdRequest) => void) =>
    (request: IdRequest, reply: FastifyReply) => serve(deps, run, request, reply, { operation, body, guard, admit, verify });

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
  await app.register(shoppingRoutes, { deps, run: shopping, admit, verify });
  await app.register(ucpMcpRoute, { deps, run, shopping, admit, verify });
};

type Admission = ReturnType<typeof callerAdmission>;

/**
 * One REST call: UCP-Agent, the `ucp` rate limit per IP, the request signature, the caller (key mode: its key),
 * the body, then the operation.
 */
async function serve(
  deps: AppDeps, run: RunOperation, request: IdRequest, reply: FastifyReply,
  served: { operation: OperationName; body: BodyKind; guard?: (request: IdRequest) => void; admit: Admission; verify: VerifyRequest },
): Promise<FastifyReply> {
  reply.header('cache-control', 'no-store');
  const declared = ucpFaceSettings(deps.config.ucp).version;
  // Refused before a version was negotiated: in the version UCP-Agent asks for when the shop serves it, else the declared one.
  let shownIn = declared;
  try {
    // The header first (it costs nothing), so that even a rate-limit refusal speaks the version asked for.
    const agent = parseAgent(request.headers['ucp-agent']);
    if (agent.version !== undefined && isUcpVersion(agent.version) && servedVersions(declared).includes(agent.version)) shownIn = agent.version;
    const limit = await deps.gate.limiter.consume('ucp', request.ip);
    if (limit.exceeded) {
      throw new UcpError(429, 'RATE_LIMITED', `Too many requests; retry in ${limit.resetSeconds} seconds.`, { retryAfter: limit.resetSeconds });
    }
    const signedBy = await served.verify(request);
    const caller = await served.admit(request.ip, request.headers, signedBy);
    served.guard?.(request);
    const answer = await run({
      operation: served.operation,
      id: request.params.id ?? '',
      agent,
      caller,
      body: readBody(request, served.body),
      idempotencyKey: idempotencyKeyOf(request, signedBy),
      requestId: request.id,
      log: request.log,
    });
    return sendAnswer(reply, answer);
  } catch (error) {
    const failure = failureOf(request, reply, error);
    const { status, body } = presentError(failure, shownIn, deps.baseUrl);
    return reply.code(status).type(JSON_TYPE).send(JSON.stringify(body));
  }
}

function readBody(request: FastifyRequest, kind: BodyKind): Record<string, unknown> {
  if (kind === 'none') return {};
  const text = typeof request.body === 'string' ? request.body : '';
  if (kind === 'optional' && text.trim() === '') return {};
  return decodeJsonBody(request);
}
