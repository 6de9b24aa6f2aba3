import { z } from 'zod';
import type { ToolContext } from '../context.ts';
import type { ucpWebhookOutbox } from '../db/schema.ts';
import { ToolError } from '../errors/tool-error.ts';
import { Timestamp, toIso } from '../schema/common.ts';
import { defineTool, readOnly, write } from './define-tool.ts';
import type { AnyTool } from './define-tool.ts';

const Status = z.enum(['pending', 'delivered', 'failed']);

const WebhookEvent = z.strictObject({
  id: z.string(),
  orderId: z.string(),
  eventType: z.string().meta({ description: 'order_placed, order_shipped, order_delivered, order_cancelled, order_refunded or order_updated.' }),
  url: z.string().meta({ description: "The platform's webhook, from its UCP profile." }),
  status: Status.meta({ description: 'pending (queued or retrying), delivered, or failed (retries given up).' }),
  attempts: z.int(),
  lastError: z.string().nullable().meta({ description: 'Why the last attempt failed (e.g. "status 503"), or null.' }),
  createdAt: Timestamp,
  nextAttemptAt: Timestamp.nullable().meta({ description: 'When a pending event is tried next; null once it is delivered or failed.' }),
  deliveredAt: Timestamp.nullable(),
});

type Row = typeof ucpWebhookOutbox.$inferSelect;

/**
 * What the webhook tools run on: the UCP face's outbox (ucp/webhooks/outbox.ts), handed to them by the
 * composition (app.ts) while UCP is on. Tools never import a face; this is the face's part, named here.
 */
export type WebhookOutbox = {
  list(db: ToolContext['db'], filter: { status: Row['status']; limit: number }): Promise<Row[]>;
  requeue(db: ToolContext['db'], id: string, now: Date): Promise<{ before: Row; after: Row } | { missing: true } | { notFailed: Row['status'] }>;
};

function toEvent(row: Row): z.input<typeof WebhookEvent> {
  return {
    id: row.id,
    orderId: row.orderId,
    eventType: row.eventType,
    url: row.url,
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: toIso(row.createdAt),
    nextAttemptAt: row.status === 'pending' ? toIso(row.nextAttemptAt) : null,
    deliveredAt: toIso(row.deliveredAt),
  };
}

/** webhooks.list and webhooks.retry over the UCP face's outbox; app.ts registers them only while UCP is on. */
export function webhookTools(outbox: WebhookOutbox): AnyTool[] {
  return [listWebhooks(outbox), retryWebhook(outbox)];
}

const listWebhooks = (outbox: WebhookOutbox) => defineTool({
  name: 'webhooks.list',
  description: 'List the order events sent to UCP platforms\' webhooks, newest first: by default the failed ones (retries given up '
    + 'after three days), which webhooks.retry sends again.',
  scope: 'orders:read',
  annotations: readOnly('List UCP webhook events'),
  input: z.strictObject({
    status: Status.default('failed').meta({ description: 'Which events to list; default failed.' }),
    limit: z.int().min(1).max(100).default(50).meta({ description: 'At most this many, 1..100; default 50.' }),
  }).meta({ examples: [{ status: 'failed', limit: 20 }] }),
  output: z.array(WebhookEvent),
  async handler({ status, limit }, { db }) {
    return (await outbox.list(db, { status, limit })).map(toEvent);
  },
});

const retryWebhook = (outbox: WebhookOutbox) => defineTool({
  name: 'webhooks.retry',
  description: 'Send a failed UCP webhook event again: it is tried within a second and retried with backoff for three more days. '
    + 'Only failed events can be retried; webhooks.list shows them. Audited (targetType "webhook").',
  scope: 'orders:write',
  annotations: write('Retry UCP webhook event', { idempotent: true }),
  input: z.strictObject({
    id: z.string().min(1).max(100).meta({ description: 'The event id from webhooks.list.', examples: ['0b6f3a52-7c1e-4d0a-9d55-2f1f5e0c9a11'] }),
  }).meta({ examples: [{ id: '0b6f3a52-7c1e-4d0a-9d55-2f1f5e0c9a11' }] }),
  output: WebhookEvent,
  async handler({ id }, ctx) {
    const requeued = await outbox.requeue(ctx.db, id, ctx.clock());
    if ('missing' in requeued) throw new ToolError('not_found', `No webhook event "${id}"; webhooks.list shows them.`);
    if ('notFailed' in requeued) {
      const status = requeued.notFailed;
      throw new ToolError('validation_failed', `Webhook event "${id}" is ${status}; only failed events are retried.`, {
        errors: [{ path: 'id', message: `event is ${status}, not failed` }],
      });
    }
    const { before, after } = requeued;
    await ctx.audit({ targetType: 'webhook', targetId: id, before: { ...before, body: undefined }, after: { ...after, body: undefined } });
    return toEvent(after);
  },
});
