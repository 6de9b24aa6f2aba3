import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { decodeJsonBody } from '../edge/json-body.ts';
import type { AppDeps } from '../deps.ts';
import type { callerAdmission } from './identity/caller.ts';
import { UcpError } from './core/errors.ts';
import { failureOf, JSON_TYPE, sendAnswer } from './replies.ts';
import { idempotencyKeyOf } from './replay-key.ts';
import { transportErrorBody } from './catalog/shopping-answer.ts';
import type { ShoppingCapability } from './catalog/shopping-answer.ts';
import { shoppingAgent } from './catalog/shopping-agent.ts';
import { SIGNED_WHEN_PLATFORM_SIGNS } from './signatures/sign-responses.ts';
import type { RunShopping, ShoppingOperationName } from './call/call.ts';
import type { VerifyRequest } from './signatures/verify-request.ts';

type IdRequest = FastifyRequest<{ Params: { id?: string } }>;


const CAPABILITY: Record<ShoppingOperationName, ShoppingCapability> = {
  search_catalog: 'dev.ucp.shopping.catalog.search',
  lookup_catalog: 'dev.ucp.shopping.catalog.lookup',
  get_product: 'dev.ucp.shopping.catalog.lookup',
  create_cart: 'dev.ucp.shopping.cart',
  get_cart: 'dev.ucp.shopping.cart',
  update_cart: 'dev.ucp.shopping.cart',
  cancel_cart: 'dev.ucp.shopping.cart',
};

/**
 * The REST binding of catalog and cart (catalog/rest.md, cart-rest.md) beside the checkout routes: the same `ucp`
 * rate limit per IP, UCP-Agent, the request signature, the same admission (key mode: a key with ucp:checkout) and body cap.
 */
export const shoppingRoutes = async (
  app: FastifyInstance,
  { deps, run, admit, verify }: { deps: AppDeps; run: RunShopping; admit: ReturnType<typeof callerAdmission>; verify: VerifyRequest },
) => {
  const route = (operation: ShoppingOperationName, withBody: boolean) => async (request: IdRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store');
    try {
      const limit = await deps.gate.limiter.consume('ucp', request.ip);
      if (limit.exceeded) {
        throw new UcpError(429, 'RATE_LIMITED', `Too many requests; retry in ${limit.resetSeconds} seconds.`, { retryAfter: limit.resetSeconds });
      }
      const agent = shoppingAgent(request.headers['ucp-agent']);
      const signedBy = await verify(request);
      const caller = await admit(request.ip, request.headers, signedBy);
      const answer = await run({
        operation,
        id: request.params.id ?? '',
        agent,
        caller,
        body: withBody ? decodeJsonBody(request) : {},
        idempotencyKey: idempotencyKeyOf(request, signedBy),
        log: request.log,
      });
      return sendAnswer(reply, answer);
    } catch (error) {
      const failure = failureOf(request, reply, error);
      return reply.code(failure.status).type(JSON_TYPE).send(JSON.stringify(transportErrorBody(CAPABILITY[operation], failure)));
    }
  };

  app.post('/catalog/search', { config: SIGNED_WHEN_PLATFORM_SIGNS }, route('search_catalog', true));
  app.post('/catalog/lookup', { config: SIGNED_WHEN_PLATFORM_SIGNS }, route('lookup_catalog', true));
  app.post('/catalog/product', { config: SIGNED_WHEN_PLATFORM_SIGNS }, route('get_product', true));
  app.post('/carts', route('create_cart', true));
  app.get('/carts/:id', route('get_cart', false));
  app.put('/carts/:id', route('update_cart', true));
  app.post('/carts/:id/cancel', route('cancel_cart', false));
};
