import type { FastifyInstance } from 'fastify';
import type { OrderEventHub, PaymentRefundHub } from '../context.ts';
import type { AppDeps } from '../deps.ts';
import type { BuyerLinking } from './identity/linked-buyer.ts';
import { feedOrderEvents } from './webhooks/order-feed.ts';
import type { OutboundPolicy } from '../outbound/fetch.ts';
import { ucpOperations } from './operations.ts';
import type { RunOperation } from './call/call.ts';
import { paymentActions } from './payments/payment-actions.ts';
import { refundThroughProcessors } from './payments/refund-seam.ts';
import { platformProfiles } from './signatures/platform-profile.ts';
import { ucpRoutes } from './routes.ts';
import { ucpFaceSettings } from './face-settings.ts';
import { signingKeySource } from './signatures/signing-keys.ts';
import { webhookDelivery } from './webhooks/webhooks.ts';

export type UcpFaceOptions = {
  deps: AppDeps;
  policy: OutboundPolicy;
  /** Where commerce announces order changes; UCP turns them into webhook events. */
  events: OrderEventHub;
  /** Where commerce's refunds pay back; UCP registers the processors its orders were paid through. */
  refunds: PaymentRefundHub;
  clock: () => Date;
  /** How a linked buyer's token is checked (identity linking through the OAuth server). */
  linking: BuyerLinking;
  /** Webhook and payment-action polling and first retry; tests shorten them. */
  timing?: { pollMs?: number; firstRetryMs?: number };
};

/**
 * UCP while it is on: order changes fed into the webhook outbox, the webhook and payment-action workers, and
 * the routes. src/app.ts imports this module only for a shop that turned UCP on, so one without never loads it.
 * Answers the UCP operations the routes run, for the buyer's checkout pages to run too: the same webhook worker,
 * which they wake after an order, and the same cache of platform profiles.
 */
export async function ucpFace(app: FastifyInstance, { deps, policy, events, refunds, clock, linking, timing }: UcpFaceOptions): Promise<RunOperation> {
  const { db } = deps.database;
  // First, before anything runs: a bad payment-handler file or version stops the start-up.
  ucpFaceSettings(deps.config.ucp);
  feedOrderEvents(events);
  refundThroughProcessors(refunds);
  const delivery = webhookDelivery({ db, policy, log: app.log, baseUrl: () => deps.baseUrl, clock, ...timing });
  const payments = paymentActions({ db, log: app.log, clock, ...timing });
  app.addHook('onClose', async () => { await Promise.all([delivery.close(), payments.close()]); });
  const profiles = platformProfiles(policy, app.log);
  const keys = signingKeySource(db, clock);
  const run = ucpOperations(deps, delivery, profiles, keys);
  await app.register(ucpRoutes, { deps, run, profiles, keys, linking });
  return run;
}
