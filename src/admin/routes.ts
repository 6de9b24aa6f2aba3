import type { FastifyError, FastifyPluginAsync } from 'fastify';
import { signInLimiter } from '../access/sign-in-limit.ts';
import { purgeStaffSessions } from '../access/staff-sessions.ts';
import type { AppDeps } from '../deps.ts';
import { sendCached } from '../edge/html/respond.ts';
import { SVG_IMAGE_POLICY } from '../edge/html/policy.ts';
import { CSS_TYPE } from '../edge/html/stylesheet.ts';
import { ConsoleRefusal } from './call.ts';
import { ADMIN_FAVICON, ADMIN_FAVICON_PATH, SVG_TYPE } from './favicon.ts';
import { ADMIN_HEADERS, ADMIN_POLICY, problemBox, sendAdminPage } from './document.ts';
import { activityRoutes } from './pages/activity.ts';
import { agentPages } from './pages/agents.ts';
import { appsPages } from './pages/apps.ts';
import { approvalPages } from './pages/approvals.ts';
import { policyPages } from './pages/policies.ts';
import { categoryPages } from './pages/categories.ts';
import { customerPages } from './pages/customers.ts';
import { discountPages } from './pages/discounts.ts';
import { importPages } from './pages/import.ts';
import { keysPages } from './pages/keys.ts';
import { orderPages } from './pages/orders.ts';
import { overviewRoutes } from './pages/overview.ts';
import { pagePreviewRoutes } from './pages/page-preview.ts';
import { pagePages } from './pages/pages.ts';
import { productPages } from './pages/products.ts';
import { servicePages } from './pages/services.ts';
import { searchWordsPages } from './pages/search-words.ts';
import { settingsPages } from './pages/settings.ts';
import { shippingPages } from './pages/shipping.ts';
import { staffPages } from './pages/staff.ts';
import { accountPages } from './account.ts';
import { inviteRoutes } from './invite.ts';
import { registerSessions } from './session.ts';
import { setupRoutes } from './setup.ts';
import { signInKeepingDraft, signInRoutes, signOutRoute } from './sign-in.ts';
import { signedInScope } from './signed-in.ts';
import { ADMIN_STYLESHEET, ADMIN_STYLESHEET_PATH } from './stylesheet.ts';
import { t } from './strings.ts';

const PURGE_INTERVAL_MS = 60 * 60 * 1000;
const STYLESHEET_MAX_AGE = 3600;

/**
 * The shop owner's console at /admin: HTML pages for people over the same tools as REST and MCP. Every
 * change a form makes is a tool call through the call pipeline, with the signed-in person as the actor.
 */
export const adminRoutes: FastifyPluginAsync<{ deps: AppDeps; masterKey: string }> = async (app, { deps, masterKey }) => {
  await registerSessions(app, deps, masterKey);
  const limiter = signInLimiter({ redisUrl: deps.config.redisUrl, prefix: deps.config.redisPrefix, log: app.log });
  const purge = setInterval(() => {
    purgeStaffSessions(deps.runtime.db, deps.runtime.clock()).catch(() => undefined);
  }, PURGE_INTERVAL_MS);
  purge.unref();
  app.addHook('onClose', async () => {
    clearInterval(purge);
    await limiter.close();
  });

  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(ADMIN_HEADERS);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.code === 'FST_CSRF_MISSING_SECRET' || error.code === 'FST_CSRF_INVALID_TOKEN') {
      request.log.warn({ code: error.code }, 'admin form refused: CSRF');
      return sendAdminPage(reply, { title: t.csrf.title, main: problemBox(t.csrf.detail, t.csrf.resolution) }, 403);
    }
    if (error instanceof ConsoleRefusal) {
      return sendAdminPage(reply, { title: t.refused, main: problemBox(error.refusal.detail, error.refusal.resolution) }, 422);
    }
    const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: { message: error.message, code: error.code } }, 'admin page failed');
    return sendAdminPage(reply, { title: t.refused, main: problemBox(status >= 500 ? 'Something went wrong on our side.' : error.message) }, status);
  });

  app.get(ADMIN_STYLESHEET_PATH, async (request, reply) =>
    sendCached(request, reply, { type: CSS_TYPE, body: ADMIN_STYLESHEET, maxAgeSeconds: STYLESHEET_MAX_AGE, policy: ADMIN_POLICY }));

  app.get(ADMIN_FAVICON_PATH, async (request, reply) =>
    sendCached(request, reply, { type: SVG_TYPE, body: ADMIN_FAVICON, maxAgeSeconds: STYLESHEET_MAX_AGE, policy: SVG_IMAGE_POLICY }));

  signInRoutes(app, deps, limiter);
  setupRoutes(app, deps, limiter);
  inviteRoutes(app, deps, limiter);
  await app.register(async (scope) => {
    signedInScope(scope, deps, signInKeepingDraft(deps));
    signOutRoute(scope, deps);
    accountPages(scope, deps, limiter);
    overviewRoutes(scope, deps);
    activityRoutes(scope, deps);
    orderPages(scope, deps);
    customerPages(scope, deps);
    productPages(scope, deps);
    categoryPages(scope, deps);
    discountPages(scope, deps);
    pagePages(scope, deps);
    pagePreviewRoutes(scope, deps);
    servicePages(scope, deps);
    agentPages(scope, deps);
    approvalPages(scope, deps);
    settingsPages(scope, deps);
    searchWordsPages(scope, deps);
    shippingPages(scope, deps);
    // An owner's pages, each in a scope of its own: its ownersOnly hook answers for its routes alone.
    for (const ownerPages of [keysPages, appsPages, policyPages, staffPages]) await scope.register(async (owners) => ownerPages(owners, deps));
    // Its own scope too: only the upload route parses multipart bodies.
    await scope.register(async (owners) => importPages(owners, deps, masterKey));
  });
};
