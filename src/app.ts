import Fastify, { LogController } from 'fastify';
import pinoPretty from 'pino-pretty';
import type { FastifyInstance } from 'fastify';
import { createAuthenticator } from './access/authenticate.ts';
import { localKeyInvalidation, redisKeyInvalidation } from './access/key-invalidation.ts';
import { rateLimiterFromConfig } from './access/rate-limit-config.ts';
import type { RateLimiter } from './access/rate-limit.ts';
import { BODY_LIMIT, resolveBaseUrl } from './config.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { logSafeError } from './db/errors.ts';
import { STOREFRONT_CSRF, registerFormCsrf } from './edge/form-csrf.ts';
import { acceptRawBodies } from './edge/json-body.ts';
import { lazy } from './edge/lazy.ts';
import { NUL_REFUSAL, guardsNul, urlHasNul } from './edge/nul-bytes.ts';
import { sendProblem } from './edge/problem-reply.ts';
import { ToolError } from './errors/tool-error.ts';
import { clientErrorHandler } from './http/client-errors.ts';
import { commandsRoute } from './http/commands-route.ts';
import { discoveryRoutes } from './http/discovery.ts';
import { frameworkErrorAnswer, registerErrorHandling } from './http/error-handler.ts';
import { healthRoutes } from './http/health.ts';
import { adminRoutes } from './admin/routes.ts';
import { keysRoutes } from './http/keys-route.ts';
import { openApiRoute } from './http/openapi-route.ts';
import { logRequest, logsRequests } from './http/request-log.ts';
import { toolsRoute } from './http/tools-route.ts';
import { mcpRoutes } from './mcp/route.ts';
import { oauthRoutes } from './oauth/routes.ts';
import { createOAuthServer } from './oauth/server.ts';
import { UCP_RESOURCE_PATH, resourceMetadataUrl, resourceUrl } from './oauth/resources.ts';
import type { BuyerLinking } from './ucp/identity/linked-buyer.ts';
import type { RunOperation } from './ucp/call/call.ts';
import type { AppDeps } from './deps.ts';
import { siteRoutes } from './site/routes.ts';
import type { AnyTool } from './tools/define-tool.ts';
import { approvalsWebhook } from './policies/webhook.ts';
import type { ToolRuntime } from './tools/invoke.ts';
import { ALL_TOOLS, buildRegistry } from './tools/registry.ts';
import { webhookTools } from './tools/webhooks.ts';
import type { OrderEventHub, PaymentRefundHub } from './context.ts';
import { orderEvents } from './domain/order-events.ts';
import { paymentRefunds } from './domain/payment-refunds.ts';

declare module 'fastify' {
  interface FastifyInstance {
    butik: AppDeps;
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
  /** UCP webhook and payment-action polling and first retry; tests shorten them. */
  webhookTiming?: { pollMs?: number; firstRetryMs?: number };
  /** false silences request logs (tests); default: pino JSON at config.logLevel. */
  logger?: boolean;
  /** Where the JSON log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
};

export function buildApp(options: AppOptions): FastifyInstance {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logger === false ? false : {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' },
      // Every `err` any layer logs passes here: database errors by SQLSTATE, never SQL or its parameters.
      serializers: { err: logSafeError },
      ...(config.logFormat === 'pretty' ? { stream: pinoPretty({ colorize: process.stdout.isTTY, translateTime: 'SYS:HH:MM:ss' }) } : {}),
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    // One JSON line per request, written by the onResponse hook below (docs/behaviour.md#running-it).
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT,
    // One trusted hop, the balancer in front: the client is the address it appended to X-Forwarded-For,
    // never one a client wrote there itself (that would let it pick its own rate-limit bucket).
    trustProxy: config.trustProxy ? (_address: string, hop: number) => hop === 0 : false,
    genReqId: () => crypto.randomUUID(),
    frameworkErrors: frameworkErrorAnswer(() => baseUrl),
    // Slow clients (one byte every few seconds) are cut off: the headers and then the whole request must
    // arrive in time, checked every second; a socket silent for two minutes is closed.
    requestTimeout: config.http.requestTimeoutMs,
    connectionTimeout: 120_000,
    http: {
      headersTimeout: Math.min(config.http.headersTimeoutMs, config.http.requestTimeoutMs),
      connectionsCheckingInterval: 1_000,
    },
    clientErrorHandler: clientErrorHandler(() => baseUrl, { debug: (object, message) => app.log.debug(object, message) }),
    // While closing, new requests get the problem answer of the hook below instead of Fastify's own body.
    return503OnClosing: false,
  });

  let baseUrl = options.baseUrl ?? resolveBaseUrl(config, config.port);
  const clock = options.clock ?? (() => new Date());
  // Commerce announces order changes here; only the UCP module listens, and only while UCP is on (below).
  const events: OrderEventHub = orderEvents();
  // Refunds pay back through the processor that took the money; only the UCP module has processors (below).
  const refunds: PaymentRefundHub = paymentRefunds();
  const runtime: ToolRuntime = {
    db: database.db, log: app.log, clock, baseUrl, orderEvents: events, paymentRefunds: refunds, timeZone: config.admin.timeZone,
    ...(config.approvalsWebhook ? { approvalHeld: approvalsWebhook(config.approvalsWebhook, app.log, clock) } : {}),
  };
  const limiter = options.limiter ?? rateLimiterFromConfig(config, app.log);
  const oauth = createOAuthServer({
    db: database.db, baseUrl: () => baseUrl, trustProxy: config.trustProxy, ucp: config.ucp.mode !== 'off',
    loopbackClientDocuments: config.oauth.loopbackClientDocuments,
  });
  const invalidation = config.redisUrl
    ? redisKeyInvalidation({ url: config.redisUrl, prefix: config.redisPrefix, log: app.log })
    : localKeyInvalidation;
  const deps: AppDeps = {
    config,
    database,
    registry: buildRegistry(options.tools ?? toolsFor(config.ucp.mode)),
    runtime,
    gate: {
      limiter,
      authenticator: createAuthenticator({
        db: database.db, masterKey: options.masterKey, clock, log: app.log, invalidation, verifyOAuthToken: oauth.verify,
      }),
    },
    get baseUrl() { return baseUrl; },
  };
  app.decorate('butik', deps);
  app.decorate('setBaseUrl', (url: string) => {
    baseUrl = url;
    runtime.baseUrl = url;
  });

  let closing = false;
  app.addHook('preClose', async () => { closing = true; });
  // The hooks every request passes take a callback: an async hook costs each request a promise and a
  // microtask hop for work that never waits.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id).header('x-content-type-options', 'nosniff');
    // An https shop tells browsers to never try it over plain http (a year; subdomains are not the shop's to pin).
    if (baseUrl.startsWith('https://')) reply.header('strict-transport-security', 'max-age=31536000');
    if (isPrivateApiPath(request.url)) reply.header('cache-control', 'no-store');
    if (urlHasNul(request.url) && guardsNul(request.url)) {
      request.log.warn({ url: request.url.slice(0, 200) }, 'request refused: NUL byte in the URL');
      sendProblem(reply, new ToolError('validation_failed', NUL_REFUSAL), baseUrl);
      return;
    }
    if (!closing) return done();
    reply.header('connection', 'close');
    sendProblem(reply, new ToolError('service_unavailable', 'This instance is shutting down.', { retryAfter: 1 }), baseUrl);
  });
  // Above info the request line would be built only for pino to drop it.
  if (options.logger !== false && logsRequests(config.logLevel)) {
    app.addHook('onResponse', (request, reply, done) => {
      logRequest(request, reply);
      done();
    });
  }
  app.addHook('onClose', async () => {
    await Promise.all([limiter.close(), invalidation.close()]);
  });

  acceptRawBodies(app);
  registerErrorHandling(app, () => baseUrl);
  for (const routes of [healthRoutes, openApiRoute, toolsRoute, keysRoutes, commandsRoute, mcpRoutes, discoveryRoutes]) {
    void app.register(routes, { deps });
  }
  void app.register(oauthRoutes, { deps, oauth, masterKey: options.masterKey });
  void app.register(adminRoutes, { deps, masterKey: options.masterKey });
  const { mode } = config.ucp;
  let ucp: RunOperation | undefined;
  if (mode !== 'off') {
    const linking: BuyerLinking = {
      verify: (token) => oauth.verifyBuyer(token, resourceUrl(baseUrl, UCP_RESOURCE_PATH)),
      issuer: () => baseUrl,
      resourceMetadata: () => resourceMetadataUrl(baseUrl, UCP_RESOURCE_PATH),
    };
    // Loaded only while UCP is on: an idle shop without it never reads the module (scripts/build.mjs).
    void app.register(async (scope) => {
      const [{ ucpFace }, { ucpOpenApi }] = await Promise.all([import('./ucp/face.ts'), import('./ucp/openapi.ts')]);
      // The OpenAPI document is built on its first request, after every face is registered.
      deps.openApiExtension = ucpOpenApi(config.ucp.auth);
      ucp = await ucpFace(scope, { deps, policy: mode, events, refunds, clock, linking, ...(options.webhookTiming ? { timing: options.webhookTiming } : {}) });
    });
  }
  // The storefront and, with UCP on, the buyer's checkout pages share one scope: the product page's Buy form and
  // the checkout form carry tokens of the same CSRF cookie. Registered after the UCP face, whose operations (its
  // webhook worker and platform-profile cache with them) the checkout pages run.
  void app.register(async (storefront) => {
    await registerFormCsrf(storefront, { cookie: STOREFRONT_CSRF, masterKey: options.masterKey, secure: deps.baseUrl.startsWith('https://') });
    await storefront.register(siteRoutes, { deps });
    if (ucp) {
      const { handoffRoutes } = await import('./handoff/routes.ts');
      await storefront.register(handoffRoutes, { deps, run: ucp });
    }
  });
  return app;
}

/**
 * The webhook tools run on the UCP face's outbox, loaded on their first call as the face itself is loaded only
 * while UCP is on (edge/lazy.ts).
 */
const ucpOutbox = lazy(() => import('./ucp/webhooks/outbox.ts'));
const UCP_TOOLS = webhookTools({
  list: async (db, filter) => (await ucpOutbox()).webhookEvents(db, filter),
  requeue: async (db, id, now) => (await ucpOutbox()).requeueWebhookEvent(db, id, now),
});

/** Every shop's tools, and while UCP is on its webhook tools: without UCP there are no webhooks. */
export function toolsFor(ucpMode: Config['ucp']['mode']): readonly AnyTool[] {
  return ucpMode === 'off' ? ALL_TOOLS : [...ALL_TOOLS, ...UCP_TOOLS];
}

/**
 * API answers may carry keys, orders and customer data: no cache keeps them. The OpenAPI document is the
 * same for everyone and may be cached like the discovery documents and public pages.
 */
function isPrivateApiPath(url: string): boolean {
  return url.startsWith('/api/') && !url.startsWith('/api/v1/openapi.json') && !url.startsWith('/api/mcp/server-card');
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Called by the server once it listens, when BASE_URL was not configured. */
    setBaseUrl(url: string): void;
  }
}
