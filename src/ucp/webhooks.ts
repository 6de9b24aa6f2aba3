import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { ucpWebhookOutbox } from '../db/schema.ts';
import type { Log } from '../log.ts';
import { sendOutbound } from './outbound.ts';
import type { OutboundPolicy } from './outbound.ts';
import { currentSigningKey, signDetached } from './signing-keys.ts';

/** Retries back off from `firstRetryMs`, doubling up to an hour, until the event's giveUpAt; then it is `failed`. */
const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** A claimed event is invisible to other instances this long, longer than one delivery may take. */
const CLAIM_MS = 30_000;
const BATCH = 10;

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

export function backoffMs(attempts: number, firstRetryMs: number): number {
  return Math.min(MAX_BACKOFF_MS, firstRetryMs * 2 ** Math.max(0, attempts - 1));
}

/**
 * Sends the outbox's due events to the platforms' webhooks, signed (Request-Signature, detached ES256 JWS) and
 * naming the shop (UCP-Agent). Every instance runs one; SKIP LOCKED hands each due event to one of them.
 */
export function webhookDelivery(options: DeliveryOptions) {
  const { db, log } = options;
  const firstRetryMs = options.firstRetryMs ?? 5_000;
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;

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

  async function drain(): Promise<void> {
    do {
      again = false;
      const claimed = await claim();
      await Promise.all(claimed.map(deliver));
      if (claimed.length === BATCH) again = true;
    } while (again && !closed);
  }

  /** Runs a pass now, or right after the running one when a pass is under way. */
  function kick(): Promise<void> {
    if (closed) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = drain().catch((error: unknown) => {
      log.error({ err: error }, 'ucp: webhook delivery pass failed');
    }).finally(() => { running = undefined; });
    return running;
  }

  const timer = setInterval(() => void kick(), options.pollMs ?? 1_000);
  timer.unref();
  return {
    kick,
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
    },
  };
}
export type WebhookDelivery = ReturnType<typeof webhookDelivery>;
