import type { FastifyInstance } from 'fastify';
import { buildOpenApi } from './openapi.ts';

export function registerOpenApiRoute(app: FastifyInstance): void {
  let cached: { baseUrl: string; body: string } | undefined;
  app.get('/api/v1/openapi.json', async (request, reply) => {
    const { registry, baseUrl } = request.server.butik;
    if (cached?.baseUrl !== baseUrl) cached = { baseUrl, body: JSON.stringify(buildOpenApi(registry.tools, baseUrl)) };
    return reply.header('content-type', 'application/json; charset=utf-8')
      .header('access-control-allow-origin', '*')
      .send(cached.body);
  });
}
