import { createHash, timingSafeEqual } from 'node:crypto';
import { runCall } from '../calls/run-call.ts';
import type { AppDeps } from '../deps.ts';
import { notFound, UcpError } from './core/errors.ts';

/** Compares digests, so neither the secret's length nor its first differing byte shows in the timing. */
export function secretMatches(sent: string | string[] | undefined, secret: string): boolean {
  if (typeof sent !== 'string') return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(sent), digest(secret));
}

/**
 * POST /testing/simulate-shipping/{orderId} (test mode, after the samples): ships the order as orders.update_status
 * would, so the platform gets order_shipped. Audited as the master key, the one that configured the secret.
 */
export async function simulateShipping(deps: AppDeps, orderId: string, requestId: string): Promise<{ status: 'shipped' }> {
  const tool = deps.registry.get('orders.update_status');
  if (!tool) throw new Error('orders.update_status is not registered');
  const outcome = await runCall({
    runtime: deps.runtime, tool, actor: { kind: 'master' }, input: { orderId, status: 'shipped' }, channel: 'rest',
    requestId, log: deps.runtime.log, idempotencyKey: undefined,
  });
  if (outcome.ok) return { status: 'shipped' };
  if (outcome.problem.code === 'not_found') throw notFound('Order');
  throw new UcpError(outcome.status, outcome.problem.code.toUpperCase(), outcome.problem.detail);
}
