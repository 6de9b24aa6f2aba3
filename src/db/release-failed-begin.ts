import type pg from 'pg';

const GUARDED = Symbol('butik: BEGIN releases on failure');
type GuardedClient = pg.PoolClient & { [GUARDED]?: true };

/**
 * drizzle-orm's node-postgres `transaction()` sends BEGIN before its try/finally, so a BEGIN that fails (a
 * connection the server dropped, or a frozen network that the query timeout gives up on) never releases the
 * client it checked out: the pool keeps it forever, and `pool.end()` at shutdown then waits forever too. Every
 * client the pool lends is made to release itself, destroyed, when its BEGIN fails; drizzle's own release is never
 * reached in that case, so the client is released exactly once. A failure anywhere else is drizzle's to release.
 */
export function releaseClientsWhoseBeginFails(pool: pg.Pool): void {
  pool.on('acquire', (client: GuardedClient) => {
    if (client[GUARDED]) return;
    client[GUARDED] = true;
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    Object.assign(client, {
      query: (...args: unknown[]) => {
        const answer = query(...args);
        if (!isBegin(args[0]) || !(answer instanceof Promise)) return answer;
        return answer.catch((error: unknown) => {
          client.release(error instanceof Error ? error : new Error('BEGIN failed'));
          throw error;
        });
      },
    });
  });
}

function isBegin(config: unknown): boolean {
  const text = typeof config === 'string' ? config : typeof config === 'object' && config !== null ? Reflect.get(config, 'text') : undefined;
  return typeof text === 'string' && /^\s*begin\b/i.test(text);
}
