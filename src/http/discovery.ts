import type { FastifyInstance } from 'fastify';

/** /.well-known/api-catalog, /docs, /problems/<code>. Issue #5 fills this in. */
export function registerDiscoveryRoutes(_app: FastifyInstance): void {}
