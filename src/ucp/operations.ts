import type { z } from 'zod';
import type { StoredAnswer } from '../calls/idempotency.ts';
import { unstorableTextErrors } from '../schema/storable-text.ts';
import type { AppDeps } from '../deps.ts';
import { ap2Negotiated, mandateRequired, requireSameTerms, verifyCheckoutMandate } from './signatures/ap2-mandates.ts';
import { failureAnswer, namesNothing, runOnce } from './call/call.ts';
import type { OperationName, RunOperation, UcpAnswer, UcpCall } from './call/call.ts';
import type { UcpCaller } from './identity/caller.ts';
import { CheckoutFromCart, checkoutFromCart } from './cart/cart-checkout.ts';
import { completeSession } from './checkout/complete.ts';
import { notFound, UcpError } from './core/errors.ts';
import { withMerchantAuthorization } from './signatures/merchant-authorization.ts';
import { negotiateVersion } from './negotiation.ts';
import { readOrder, updateOrder, UpdateOrder } from './webhooks/orders.ts';
import type { OrderAnswer } from './webhooks/orders.ts';
import type { PlatformProfile, ProfileReader } from './signatures/platform-profile.ts';
import { publishedCapabilityNames } from './profile.ts';
import { CompleteCheckout, CreateCheckout, CreateCheckoutWithCurrency, UpdateCheckout } from './checkout/schemas.ts';
import { presentCheckout, presentError, presentOrder } from './checkout/shapes.ts';
import type { Edge } from './checkout/shapes.ts';
import { simulateShipping } from './simulation.ts';
import { cancelSession, createSession, readSession, sessionMandate, updateSession } from './checkout/sessions.ts';
import type { WriteSettings } from './checkout/sessions.ts';
import { publishedSigningKeys } from './signatures/signing-keys.ts';
import type { SigningKeySource } from './signatures/signing-keys.ts';
import type { UcpVersion } from './core/versions.ts';
import type { WebhookDelivery } from './webhooks/webhooks.ts';
import { ucpFaceSettings } from './face-settings.ts';

type Context = UcpCall & { profile: PlatformProfile; settings: WriteSettings; edge: Edge };
/** What an operation answers, before it is shaped for the negotiated version. */
type Outcome =
  | { status: number; kind: 'checkout'; body: Record<string, unknown> }
  | { status: number; kind: 'order'; body: OrderAnswer }
  | { status: number; kind: 'plain'; body: unknown };
type Operation = {
  writes: boolean;
  /** What the id in the path names, for the operations that take one. */
  about?: 'Checkout session' | 'Order';
  run(context: Context): Promise<Outcome>;
};

/** Schema violations are 422, as the samples' validation answers them; the first issue names the member. */
export function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const unstorable = unstorableTextErrors(body);
  if (unstorable[0]) throw new UcpError(422, 'INVALID_REQUEST', `Invalid request: ${unstorable[0].path}: ${unstorable[0].message}`);
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.length ? `${issue.path.map(String).join('.')}: ` : '';
  throw new UcpError(422, 'INVALID_REQUEST', `Invalid request: ${path}${issue?.message ?? 'the body does not match the schema'}`);
}

/**
 * The UCP operations over Butik's stores, shared by the REST and MCP bindings: the platform's profile read,
 * the call run once per Idempotency-Key and platform (checked before the body is validated, so a replay answers
 * what the first call did), and every failure answered as UCP's error structure.
 */
export function ucpOperations(deps: AppDeps, delivery: WebhookDelivery, profiles: ProfileReader, keys: SigningKeySource): RunOperation {
  const { config } = deps;
  const { paymentHandlers, version: declared } = ucpFaceSettings(config.ucp);
  const db = deps.database.db;
  const settingsFor = (caller: UcpCaller): WriteSettings => ({
    handlers: paymentHandlers, caller, baseUrl: deps.baseUrl, now: deps.runtime.clock(), savedAddresses: config.ucp.savedAddresses,
  });

  const operations: Record<OperationName, Operation> = {
    create_checkout: {
      writes: true,
      // With cart_id, the cart's contents start the session (cart-checkout.ts).
      async run({ agent, body, settings, edge }) {
        // A session started under AP2 stays under it (sessions.ts sessionMandate).
        const recorded = { ...settings, ap2: edge.ap2 };
        if (body.cart_id !== undefined) {
          return { status: 201, kind: 'checkout', body: await checkoutFromCart(db, parse(CheckoutFromCart, body), agent.profile, recorded) };
        }
        const request = parse(edge.version === '2026-01-11' ? CreateCheckoutWithCurrency : CreateCheckout, body);
        return { status: 201, kind: 'checkout', body: await createSession(db, request, agent.profile, recorded) };
      },
    },
    get_checkout: {
      writes: false, about: 'Checkout session', run: async ({ id, settings }) => ({ status: 200, kind: 'checkout', body: await readSession(db, id, settings) }),
    },
    update_checkout: {
      writes: true,
      about: 'Checkout session',
      run: async ({ id, body, settings }) => ({ status: 200, kind: 'checkout', body: await updateSession(db, id, parse(UpdateCheckout, body), settings) }),
    },
    complete_checkout: {
      writes: true,
      about: 'Checkout session',
      async run({ id, agent, profile, body, settings, edge, idempotencyKey, requestId, log: callLog }) {
        const request = parse(CompleteCheckout, body);
        // A session created under AP2 needs the mandate whatever version or profile this call names, verified
        // with the keys of the platform that created it: naming an older version or another profile skips nothing.
        const created = await sessionMandate(db, id);
        const mandateProfile = created?.ap2 && created.platform !== agent.profile ? await profiles(created.platform) : profile;
        const needsMandate = edge.ap2 || created?.ap2 === true;
        const completed = await completeSession(db, id, request, {
          ...settings, log: callLog, platform: agent.profile, idempotencyKey: idempotencyKey ?? requestId, webhookUrl: profile.webhookUrl,
          events: deps.runtime.orderEvents, version: edge.version,
          ...(needsMandate ? { bindMandate: await mandateBinding(request.ap2Mandate, mandateProfile, settings.now, edge) } : {}),
        });
        // order_placed was queued with the order; it leaves now rather than at the next poll.
        void delivery.kick();
        return { status: 200, kind: 'checkout', body: completed };
      },
    },
    cancel_checkout: {
      writes: true, about: 'Checkout session', run: async ({ id, settings }) => ({ status: 200, kind: 'checkout', body: await cancelSession(db, id, settings) }),
    },
    get_order: { writes: false, about: 'Order', run: async ({ id, caller }) => ({ status: 200, kind: 'order', body: await readOrder(db, id, caller) }) },
    update_order: {
      writes: true,
      about: 'Order',
      async run({ id, body, settings }) {
        const updated = await updateOrder(db, id, parse(UpdateOrder, body), settings.now, settings.caller);
        void delivery.kick();
        return { status: 200, kind: 'order', body: updated };
      },
    },
    simulate_shipping: {
      writes: true,
      about: 'Order',
      async run({ id, requestId }) {
        const shipped = await simulateShipping(deps, id, requestId);
        void delivery.kick();
        return { status: 200, kind: 'plain', body: shipped };
      },
    },
  };
  /**
   * Under the AP2 mandate extension a completion carries a checkout mandate: verified before anything else
   * (ap2-mandates.ts), then held against the session as completion finds it.
   */
  async function mandateBinding(mandate: string | undefined, profile: PlatformProfile, now: Date, edge: Edge) {
    if (mandate === undefined) throw mandateRequired();
    const mandated = await verifyCheckoutMandate(mandate, { platformKeys: profile.signingKeys, shopKeys: await publishedSigningKeys(db), now });
    return (view: Record<string, unknown>) => requireSameTerms(mandated, presentCheckout(view, edge));
  }

  const shaped = async (outcome: Outcome, edge: Edge): Promise<unknown> => {
    switch (outcome.kind) {
      case 'checkout': {
        const checkout = presentCheckout(outcome.body, edge);
        // Under the AP2 mandate extension every checkout answer carries the shop's signature of its terms.
        return edge.ap2 ? withMerchantAuthorization(checkout, await keys()) : checkout;
      }
      case 'order':
        return presentOrder(outcome.body.document, edge, outcome.body.currency);
      case 'plain':
        return outcome.body;
    }
  };
  /** A failure in the version the call negotiated, or the declared one when it failed before a version was agreed. */
  const failed = (error: UcpError, version = declared): UcpAnswer => failureAnswer(error, presentError(error, version, deps.baseUrl));

  return async function runOperation(call: UcpCall): Promise<UcpAnswer> {
    const operation = operations[call.operation];
    if (operation.about !== undefined && namesNothing(call.id)) return failed(notFound(operation.about));
    // The version is settled before an Idempotency-Key can replay anything: a version refused now is refused.
    const profile = await profiles(call.agent.profile);
    if (profile.malformed !== null) {
      return failed(new UcpError(422, 'PROFILE_MALFORMED', `The platform profile ${call.agent.profile} ${profile.malformed}; serve a UCP profile there (a JSON object with a "ucp" member).`));
    }
    let version;
    try {
      version = negotiateVersion({ header: call.agent.version, profile: profile.version }, declared);
    } catch (error) {
      if (error instanceof UcpError) return failed(error);
      throw error;
    }
    const incompatible = incompatibleCapabilities(profile.capabilities, version);
    if (incompatible) return failed(incompatible, version);
    const edge: Edge = {
      version, handlers: paymentHandlers, platformCapabilities: profile.capabilities, baseUrl: deps.baseUrl, ap2: ap2Negotiated(version, profile.capabilities),
    };
    const execute = async (): Promise<StoredAnswer> => {
      try {
        const outcome = await operation.run({ ...call, profile, settings: settingsFor(call.caller), edge });
        return { status: outcome.status, text: JSON.stringify(await shaped(outcome, edge)) };
      } catch (error) {
        if (error instanceof UcpError) return failed(error, edge.version);
        throw error;
      }
    };
    return runOnce({ db, now: deps.runtime.clock() }, call, operation.writes, execute, (failure) => failed(failure, version));
  };
}
/**
 * Capability negotiation (overview.md): a profile that lists capabilities sharing none with the shop's in the
 * negotiated version leaves nothing to do together, a business outcome from 2026-04-08 on (200, `ucp.status`
 * "error"). A profile that could not be read, or lists none, leaves the checkout's own capabilities in force.
 */
function incompatibleCapabilities(platform: string[] | null, version: UcpVersion): UcpError | undefined {
  if (platform === null || platform.length === 0) return undefined;
  const shop = new Set(publishedCapabilityNames(version));
  if (platform.some((name) => shop.has(name))) return undefined;
  return new UcpError(400, 'CAPABILITIES_INCOMPATIBLE', `The platform profile lists none of this shop's capabilities (${[...shop].join(', ')}).`, { outcome: 'capabilities_incompatible' });
}

