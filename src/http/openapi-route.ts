import type { RoutePlugin } from '../deps.ts';
import { buildOpenApi } from './openapi.ts';

export const openApiRoute: RoutePlugin = async (app, { deps }) => {
  let cached: { baseUrl: string; body: string } | undefined;
  app.get('/api/v1/openapi.json', async (_request, reply) => {
    const { registry, baseUrl } = deps;
    if (cached?.baseUrl !== baseUrl) cached = { baseUrl, body: JSON.stringify(buildOpenApi(registry.tools, baseUrl, deps.openApiExtension)) };
    return reply.header('content-type', 'application/json; charset=utf-8')
      .header('access-control-allow-origin', '*')
      .send(cached.body);
  });
};
