import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { ucpWebhookOutbox } from '../db/schema.ts';
import type { Log } from '../log.ts';
import { sendOutbound } from './outbound.ts';
import type { OutboundPolicy } from './outbound.ts';
import { BATCH, backoffMs, CLAIM_MS, queueWorker } from './queue-worker.ts';
import type { QueueWorker } from './queue-worker.ts';
import { currentSigningKey, signDetached } from './signing-keys.ts';

export type DeliveryOptions = {
  db: Db;
  policy: OutboundPolicy;
  log: Log;
  baseUrl: () => string;
  clock: () => Date;
  /** How often due events are looked for, besides the nudge after each commit. */
  pollMs?: number;
  firstRetryMs?: number;
};

/**
 * Sends the outbox's due events to the platforms' webhooks, signed (Request-Signature, detached ES256 JWS) and
 * naming the shop (UCP-Agent). Every instance runs one; SKIP LOCKED hands each due event to one of them. A failed
 * attempt is retried with backoff from `firstRetryMs` up to an hour, until the event's giveUpAt; then it is `failed`.
 */
export function webhookDelivery(options: DeliveryOptions): QueueWorker {
  const { db, log } = options;
  const firstRetryMs = options.firstRetryMs ?? 5_000;

  async function claim() {
    const now = options.clock();
    const due = db.select({ id: ucpWebhookOutbox.id }).from(ucpWebhookOutbox)
      .where(and(eq(ucpWebhookOutbox.status, 'pending'), lte(ucpWebhookOutbox.nextAttemptAt, now)))
      .orderBy(asc(ucpWebhookOutbox.nextAttemptAt)).limit(BATCH)
      .for('update', { skipLocked: true });
    return db.update(ucpWebhookOutbox)
      .set({ nextAttemptAt: new Date(now.getTime() + CLAIM_MS), attempts: sql`${ucpWebhookOutbox.attempts} + 1` })
      .where(inArray(ucpWebhookOutbox.id, due))
      .returning();
  }

  async function deliver(event: Awaited<ReturnType<typeof claim>>[number]): Promise<void> {
    let failure: string;
    try {
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
        },
        body: event.body,
        timeoutMs: 10_000,
        maxBytes: 64 * 1024,
      }, options.policy);
      if (answer.status >= 200 && answer.status < 300) {
        await db.update(ucpWebhookOutbox).set({ status: 'delivered', deliveredAt: options.clock(), lastError: null }).where(eq(ucpWebhookOutbox.id, event.id));
        return;
      }
      failure = `status ${answer.status}`;
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    const now = options.clock();
    const expired = now.getTime() >= event.giveUpAt.getTime();
    log.warn({ eventId: event.id, orderId: event.orderId, attempts: event.attempts, reason: failure }, 'ucp: webhook delivery failed');
    await db.update(ucpWebhookOutbox).set({
      lastError: failure.slice(0, 500),
      ...(expired ? { status: 'failed' as const } : { nextAttemptAt: new Date(now.getTime() + backoffMs(event.attempts, firstRetryMs)) }),
    }).where(eq(ucpWebhookOutbox.id, event.id));
  }

  return queueWorker({
    name: 'webhook delivery',
    log,
    pollMs: options.pollMs ?? 1_000,
    async pass() {
      const claimed = await claim();
      await Promise.all(claimed.map(deliver));
      return claimed.length === BATCH;
    },
  });
}
export type WebhookDelivery = QueueWorker;
