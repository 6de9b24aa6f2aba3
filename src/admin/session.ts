import { createHmac } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import fastifySession from '@fastify/session';
import type { FastifyInstance, FastifyRequest, Session } from 'fastify';
import { staffSessionStore } from '../access/staff-sessions.ts';
import type { AppDeps } from '../deps.ts';
import type { Draft } from './drafts.ts';

declare module 'fastify' {
  interface Session {
    /** Set at sign-in, after the session id was rotated. */
    staffId?: string;
    /** When (ms, by the app clock) the idle deadline last moved: the session row is written again only after TOUCH_MS. */
    touchedAt?: number;
    /** What was typed into a form that arrived after the session ended, until its page shows it again (drafts.ts). */
    draft?: Draft | undefined;
  }
}

export const SESSION_COOKIE = 'butik_admin';
/**
 * How often a request by a signed-in person moves the idle deadline forward (a write of the session row). In
 * between, a request writes nothing unless the session itself changed, so the deadline counts from at most
 * this long before the last request.
 */
export const TOUCH_MS = 60_000;
/** Form bodies of the console are small; the import upload has its own limit (pages/import.ts). */
const FORM_LIMIT = 256 * 1024;

/**
 * Sessions, CSRF tokens and form bodies for /admin, all from the Fastify plugins: the cookie carries a signed
 * session id only (HttpOnly, SameSite=Lax, Secure with an https BASE_URL, path /admin); the session itself is a
 * database row every instance reads. The cookie signing secret is derived from the master key, which every
 * instance of a deployment shares.
 */
export async function registerSessions(app: FastifyInstance, deps: AppDeps, masterKey: string): Promise<void> {
  const { db, clock } = deps.runtime;
  const idleMs = deps.config.admin.idleMinutes * 60_000;
  await app.register(fastifyCookie);
  await app.register(fastifySession, {
    secret: createHmac('sha256', masterKey).update('butik admin session cookie').digest('base64url'),
    cookieName: SESSION_COOKIE,
    store: staffSessionStore<Session>({ db, clock, idleMs }),
    saveUninitialized: false,
    // Saved only when changed: the hook below changes touchedAt once every TOUCH_MS, which moves the deadline.
    rolling: false,
    cookie: {
      path: '/admin',
      httpOnly: true,
      sameSite: 'lax',
      secure: deps.baseUrl.startsWith('https://'),
      maxAge: idleMs,
    },
  });
  app.addHook('onRequest', async (request) => {
    const { session } = request;
    if (!session.staffId) return;
    const now = clock().getTime();
    if (session.touchedAt === undefined || now - session.touchedAt >= TOUCH_MS) session.touchedAt = now;
  });
  await app.register(fastifyFormbody, { bodyLimit: FORM_LIMIT });
  await app.register(fastifyCsrf, { sessionPlugin: '@fastify/session', getToken: formToken });
}

/**
 * The `_csrf` field of a form: a plain value in a url-encoded body, a field part of a multipart one (the
 * import upload, whose fields @fastify/multipart attaches to the body), so an upload is checked like any form.
 */
function formToken(request: FastifyRequest): string | undefined {
  const field: unknown = (request.body as Record<string, unknown> | undefined)?._csrf;
  if (typeof field === 'string') return field;
  const part = typeof field === 'object' && field !== null && 'value' in field ? field.value : undefined;
  return typeof part === 'string' ? part : undefined;
}
