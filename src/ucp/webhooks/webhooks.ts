import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { ucpWebhookOutbox } from '../../db/schema.ts';
import type { Log } from '../../log.ts';
import { sendOutbound } from '../../outbound/fetch.ts';
import type { OutboundPolicy } from '../../outbound/fetch.ts';
import { retryQueue } from '../core/queue-worker.ts';
import type { QueueWorker } from '../core/queue-worker.ts';
import { signRequest } from '../signatures/message-signatures.ts';
import { signDetached, signingKeySource } from '../signatures/signing-keys.ts';

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
 * Sends the outbox's due events to the platforms' webhooks, naming the shop (UCP-Agent) and the event (Webhook-Id, Webhook-Timestamp, X-Event-Type) and signed twice with one
 * key: an RFC 9421 message signature (Signature-Input, Signature, Content-Digest), which UCP 2026-04-08 asks for,
 * and the detached ES256 JWS in Request-Signature that 2026-01-11 asks for, so a platform of either version can
 * check it (docs/ucp.md#what-butik-signs). Every instance runs one; SKIP LOCKED hands each due event to one of them. A failed
 * attempt is retried with backoff from `firstRetryMs` up to an hour, until the event's giveUpAt; then it is `failed`.
 */
export function webhookDelivery(options: DeliveryOptions): QueueWorker {
  const { db, log } = options;
  const signingKey = signingKeySource(db, options.clock);
  return retryQueue({
    ...options,
    name: 'webhook delivery',
    table: ucpWebhookOutbox,
    async attempt(event) {
      const signer = await signingKey();
      const headers = {
        'content-type': 'application/json',
        'ucp-agent': `profile="${options.baseUrl()}/.well-known/ucp"`,
        'idempotency-key': event.id,
        // Standard Webhooks' names for the event's id and when it happened (Unix seconds).
        'webhook-id': event.id,
        'webhook-timestamp': String(Math.floor(event.createdAt.getTime() / 1000)),
        // Its type, for routing (order.md).
        'x-event-type': event.eventType,
      };
      const signed = await signRequest({ method: 'POST', url: event.url, headers, body: event.body }, signer, options.clock());
      const answer = await sendOutbound({
        method: 'POST',
        url: event.url,
        headers: { ...headers, ...signed, 'request-signature': signDetached(event.body, signer), 'request-id': randomUUID() },
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
