import type { FastifyInstance } from 'fastify';

/** Public HTML: /info/<slug>, /services, /services/<slug>, demo images. Issue #4 fills this in. */
export function registerSiteRoutes(_app: FastifyInstance): void {}
