import type { Log } from '../log.ts';

/**
 * Runs `pass` (one batch of due work; true when there may be more) now and then: every `pollMs`, and at once
 * when kicked. One pass at a time; a kick during a pass asks for another right after it.
 */
export function queueWorker(options: { name: string; log: Log; pollMs: number; pass: () => Promise<boolean> }) {
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;

  async function drain(): Promise<void> {
    do {
      again = false;
      if (await options.pass()) again = true;
    } while (again && !closed);
  }

  function kick(): Promise<void> {
    if (closed) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = drain().catch((error: unknown) => {
      options.log.error({ err: error }, `ucp: ${options.name} pass failed`);
    }).finally(() => { running = undefined; });
    return running;
  }

  const timer = setInterval(() => void kick(), options.pollMs);
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
export type QueueWorker = ReturnType<typeof queueWorker>;

/** Retries back off from `firstRetryMs`, doubling up to an hour. */
export function backoffMs(attempts: number, firstRetryMs: number): number {
  return Math.min(60 * 60 * 1000, firstRetryMs * 2 ** Math.max(0, attempts - 1));
}

/** A claimed item is invisible to other instances this long, longer than one attempt may take. */
export const CLAIM_MS = 30_000;
export const BATCH = 10;
