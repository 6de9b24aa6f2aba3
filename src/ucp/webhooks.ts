import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { ucpWebhookOutbox } from '../db/schema.ts';
import type { Log } from '../log.ts';
import { sendOutbound } from './outbound.ts';
import type { OutboundPolicy } from './outbound.ts';
import { retryQueue } from './queue-worker.ts';
import type { QueueWorker } from './queue-worker.ts';
import { currentSigningKey, signDetached } from './signing-keys.ts';

export type DeliveryOptions = {
  db: Db;
  policy: OutboundPolicy;
  log: Log;
  baseUrl: () => string;
  clock: () => Date;
  /** How often due events are looked for, besides the kick after each commit. */
  pollMs?: number;
  firstRetryMs?: number;
};

/**
 * Sends the outbox's due events to the platforms' webhooks, signed (Request-Signature, detached ES256 JWS),
 * naming the shop (UCP-Agent) and the event (Webhook-Id, Webhook-Timestamp, X-Event-Type). Every instance runs one; SKIP LOCKED hands each due event to one of them. A failed
 * attempt is retried with backoff from `firstRetryMs` up to an hour, until the event's giveUpAt; then it is `failed`.
 */
export function webhookDelivery(options: DeliveryOptions): QueueWorker {
  const { db, log } = options;
  return retryQueue({
    ...options,
    name: 'webhook delivery',
    table: ucpWebhookOutbox,
    async attempt(event) {
      const signature = signDetached(event.body, await currentSigningKey(db));
      const answer = await sendOutbound({
        method: 'POST',
        url: event.url,
        headers: {
          'content-type': 'application/json',
          'ucp-agent': `profile="${options.baseUrl()}/.well-known/ucp"`,
          'request-signature': signature,
          'request-id': randomUUID(),
          'idempotency-key': event.id,
          // Standard Webhooks' identity and time of the event, which order.md asks for, and its type for routing.
          'webhook-id': event.id,
          'webhook-timestamp': String(Math.floor(event.createdAt.getTime() / 1000)),
          'x-event-type': event.eventType,
        },
        body: event.body,
        timeoutMs: 10_000,
        maxBytes: 64 * 1024,
      }, options.policy);
      if (answer.status < 200 || answer.status >= 300) throw new Error(`status ${answer.status}`);
      await db.update(ucpWebhookOutbox).set({ status: 'delivered', deliveredAt: options.clock(), lastError: null }).where(eq(ucpWebhookOutbox.id, event.id));
    },
    reportFailure(event, reason) {
      log.warn({ eventId: event.id, orderId: event.orderId, attempts: event.attempts, reason }, 'ucp: webhook delivery failed');
    },
  });
}
export type WebhookDelivery = QueueWorker;
