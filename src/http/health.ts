import type { FastifyInstance } from 'fastify';

/** CONTRACT §1: liveness and readiness. */
export function registerHealthRoutes(app: FastifyInstance): void {
  app.get('/healthz', async () => ({ ok: true }));
  app.get('/readyz', async (request, reply) => {
    try {
      await request.server.butik.database.ping();
      return { ok: true };
    } catch (error) {
      request.log.warn({ err: error }, 'database not reachable');
      return reply.code(503).send({ ok: false, database: 'unreachable' });
    }
  });
}
