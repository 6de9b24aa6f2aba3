import { DATABASE_RETRY_AFTER_S } from '../errors/to-problem.ts';
import type { RoutePlugin } from '../deps.ts';

/**
 * Liveness and readiness (docs/behaviour.md#running-it). Readiness is the database alone: an instance whose Redis is away
 * still serves (counting in memory), so taking it out of the load balancer would only hurt. With
 * REDIS_URL set, the body adds `rateLimits: "redis"` or `"degraded"` for operators; without it the
 * body is exactly `{"ok":true}`.
 */
export const healthRoutes: RoutePlugin = async (app, { deps }) => {
  app.get('/healthz', async () => ({ ok: true }));
  app.get('/readyz', async (request, reply) => {
    const store = deps.gate.limiter.store();
    const rateLimits = store === 'memory' ? {} : { rateLimits: store };
    try {
      await withDeadline(deps.database.ping(), READY_DEADLINE_MS);
      return { ok: true, ...rateLimits };
    } catch (error) {
      request.log.warn({ err: error }, 'database not reachable');
      return reply.code(503).header('retry-after', String(DATABASE_RETRY_AFTER_S))
        .send({ ok: false, database: 'unreachable', ...rateLimits });
    }
  });
};

/** A load balancer's probe gives up after a second or two: a frozen database must not hold it longer. */
const READY_DEADLINE_MS = 900;

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
