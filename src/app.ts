import Fastify, { LogController } from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { Gate } from './access/admit.ts';
import { createAuthenticator } from './access/authenticate.ts';
import { rateLimiterFromConfig } from './access/rate-limit-config.ts';
import type { RateLimiter } from './access/rate-limit.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { answerFrameworkError, registerErrorHandling } from './http/error-handler.ts';
import { registerHealthRoutes } from './http/health.ts';
import { acceptRawBodies, BODY_LIMIT } from './http/json-body.ts';
import { registerKeysRoutes } from './http/keys-route.ts';
import { registerOpenApiRoute } from './http/openapi-route.ts';
import { logRequest } from './http/request-log.ts';
import { registerToolsRoute } from './http/tools-route.ts';
import { registerDiscoveryRoutes } from './http/discovery.ts';
import { registerMcpRoutes } from './mcp/route.ts';
import { registerSiteRoutes } from './site/routes.ts';
import { registerOAuthRoutes } from './oauth/routes.ts';
import { createOAuthServer } from './oauth/server.ts';
import type { AnyTool } from './tools/define-tool.ts';
import type { ToolRuntime } from './tools/invoke.ts';
import { ALL_TOOLS, buildRegistry } from './tools/registry.ts';
import type { Registry } from './tools/registry.ts';

export type Services = {
  config: Config;
  database: Database;
  registry: Registry;
  runtime: ToolRuntime;
  gate: Gate;
  /** The public base address; fixed once the port is known (CONTRACT §1 BASE_URL). */
  readonly baseUrl: string;
};

declare module 'fastify' {
  interface FastifyInstance {
    butik: Services;
  }
}

export type AppOptions = {
  config: Config;
  database: Database;
  masterKey: string;
  /** Defaults to the configured base URL, or http://HOST:PORT. */
  baseUrl?: string;
  clock?: () => Date;
  tools?: readonly AnyTool[];
  limiter?: RateLimiter;
  /** false silences request logs (tests); default: pino JSON at config.logLevel. */
  logger?: boolean;
};

export function buildApp(options: AppOptions): FastifyInstance {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logger === false ? false : {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' },
    },
    // One JSON line per request, written by the onResponse hook below (CONTRACT §1).
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT,
    // One trusted hop, the balancer in front: the client is the address it appended to X-Forwarded-For,
    // never one a client wrote there itself (that would let it pick its own rate-limit bucket). CONTRACT §5.
    trustProxy: config.trustProxy ? (_address: string, hop: number) => hop === 0 : false,
    genReqId: () => crypto.randomUUID(),
    frameworkErrors: answerFrameworkError,
  });

  let baseUrl = options.baseUrl ?? config.baseUrl ?? `http://${config.host}:${config.port}`;
  const clock = options.clock ?? (() => new Date());
  const runtime: ToolRuntime = { db: database.db, log: app.log, clock, baseUrl };
  const limiter = options.limiter ?? rateLimiterFromConfig(config, app.log);
  const oauth = createOAuthServer({ db: database.db, baseUrl: () => baseUrl, trustProxy: config.trustProxy });
  const services: Services = {
    config,
    database,
    registry: buildRegistry(options.tools ?? ALL_TOOLS),
    runtime,
    gate: {
      limiter,
      authenticator: createAuthenticator({
        db: database.db, masterKey: options.masterKey, clock, log: app.log, verifyOAuthToken: oauth.verify,
      }),
    },
    get baseUrl() { return baseUrl; },
  };
  app.decorate('butik', services);
  app.decorate('setBaseUrl', (url: string) => {
    baseUrl = url;
    runtime.baseUrl = url;
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => logRequest(request, reply));
  app.addHook('onClose', async () => {
    await limiter.close();
  });

  acceptRawBodies(app);
  registerErrorHandling(app);
  registerHealthRoutes(app);
  registerOpenApiRoute(app);
  registerToolsRoute(app);
  registerKeysRoutes(app);
  registerMcpRoutes(app);
  registerDiscoveryRoutes(app);
  registerSiteRoutes(app);
  registerOAuthRoutes(app, oauth, options.masterKey);
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Called by the server once it listens, when BASE_URL was not configured. */
    setBaseUrl(url: string): void;
  }
}
