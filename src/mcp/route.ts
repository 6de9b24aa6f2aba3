import type { FastifyInstance } from 'fastify';

/** /api/mcp and the server card. Issue #5 fills this in. */
export function registerMcpRoutes(_app: FastifyInstance): void {}
