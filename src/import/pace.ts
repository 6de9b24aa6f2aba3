import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * How many rows an import reads, checks or looks up at a time. A batch is also where it gives the event
 * loop back: an import runs in the server's process (the console, the commands route) and must not hold
 * up other requests for the seconds a large file takes, and a query's parameter list stays far below
 * PostgreSQL's limit of 65,535.
 */
export const BATCH_ROWS = 1_000;

/** Lets whatever else waits on the event loop (other requests, their I/O) run before the import goes on. */
export function giveWay(): Promise<void> {
  return nextTurn();
}

/** The items in batches of BATCH_ROWS, in order. */
export function* batches<T>(items: readonly T[]): Generator<T[]> {
  for (let start = 0; start < items.length; start += BATCH_ROWS) yield items.slice(start, start + BATCH_ROWS);
}
