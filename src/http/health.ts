import type { FastifyInstance } from 'fastify';

/**
 * CONTRACT §1: liveness and readiness. Readiness is the database alone: an instance whose Redis is away
 * still serves (counting in memory), so taking it out of the load balancer would only hurt. With
 * REDIS_URL set, the body adds `rateLimits: "redis"` or `"degraded"` for operators; without it the
 * body is exactly `{"ok":true}`.
 */
export function registerHealthRoutes(app: FastifyInstance): void {
  app.get('/healthz', async () => ({ ok: true }));
  app.get('/readyz', async (request, reply) => {
    const store = request.server.butik.gate.limiter.store();
    const rateLimits = store === 'memory' ? {} : { rateLimits: store };
    try {
      await request.server.butik.database.ping();
      return { ok: true, ...rateLimits };
    } catch (error) {
      request.log.warn({ err: error }, 'database not reachable');
      return reply.code(503).send({ ok: false, database: 'unreachable', ...rateLimits });
    }
  });
}
