import type { RoutePlugin } from '../services.ts';
import { buildOpenApi } from './openapi.ts';

export const openApiRoute: RoutePlugin = async (app, { services }) => {
  let cached: { baseUrl: string; body: string } | undefined;
  app.get('/api/v1/openapi.json', async (_request, reply) => {
    const { registry, baseUrl } = services;
    if (cached?.baseUrl !== baseUrl) cached = { baseUrl, body: JSON.stringify(buildOpenApi(registry.tools, baseUrl, services.openApiExtension)) };
    return reply.header('content-type', 'application/json; charset=utf-8')
      .header('access-control-allow-origin', '*')
      .send(cached.body);
  });
};
