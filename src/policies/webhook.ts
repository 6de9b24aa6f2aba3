import { createHmac } from 'node:crypto';
import type { Log } from '../log.ts';

/** The header that signs a delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the secret>`. */
export const SIGNATURE_HEADER = 'butik-signature';

/** What a new pending approval tells the owner's endpoint: enough to ask a person, nothing of the arguments. */
export type ApprovalNotice = { id: string; url: string; expiresAt: string; reason: string; tool: string; agent: string };

/** Waits before the 2nd, 3rd and 4th attempt; a delivery that never succeeds is logged and dropped. */
const RETRY_AFTER_MS = [1_000, 10_000, 60_000];
const TIMEOUT_MS = 5_000;

export function signature(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * A notifier that POSTs each new pending approval to the owner's endpoint (BUTIK_APPROVALS_WEBHOOK), signed,
 * retried on failure in the background: the held call never waits for it. Deliveries live in this process, so a
 * restart loses the ones still retrying; the console and approvals.list remain the record.
 */
export function approvalsWebhook(target: { url: string; secret: string }, log: Log, now: () => Date): (notice: ApprovalNotice) => void {
  const deliver = async (notice: ApprovalNotice, attempt: number): Promise<void> => {
    const body = JSON.stringify({ type: 'approval.pending', approval: notice });
    const timestamp = Math.floor(now().getTime() / 1000);
    try {
      const response = await fetch(target.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature(target.secret, timestamp, body) },
        body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (response.ok) return;
      throw new Error(`answered ${response.status}`);
    } catch (error) {
      const wait = RETRY_AFTER_MS[attempt];
      if (wait === undefined) {
        log.warn({ approvalId: notice.id, reason: (error as Error).message }, 'approval webhook gave up');
        return;
      }
      setTimeout(() => { void deliver(notice, attempt + 1); }, wait).unref();
    }
  };
  return (notice) => { void deliver(notice, 0); };
}
