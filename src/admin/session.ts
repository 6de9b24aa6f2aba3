import { createHmac } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import fastifySession from '@fastify/session';
import type { FastifyInstance, FastifyReply, FastifyRequest, Session } from 'fastify';
import { managesAccess } from '../access/staff-roles.ts';
import { findStaff, staffActor } from '../access/staff.ts';
import { staffSessionStore } from '../access/staff-sessions.ts';
import type { Actor } from '../access/actor.ts';
import type { AppDeps } from '../deps.ts';
import type { Viewer } from './document.ts';

declare module 'fastify' {
  interface Session {
    /** Set at sign-in, after the session id was rotated. */
    staffId?: string;
  }
}

export const SESSION_COOKIE = 'butik_admin';
/** Form bodies of the console are small; an import upload would get its own limit. */
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
    // Every request moves the idle deadline forward.
    rolling: true,
    cookie: {
      path: '/admin',
      httpOnly: true,
      sameSite: 'lax',
      secure: deps.baseUrl.startsWith('https://'),
      maxAge: idleMs,
    },
  });
  await app.register(fastifyFormbody, { bodyLimit: FORM_LIMIT });
  await app.register(fastifyCsrf, { sessionPlugin: '@fastify/session' });
}

export type SignedIn = { actor: Extract<Actor, { kind: 'staff' }>; viewer: Viewer };

/**
 * The signed-in person, read again from the database on every request so a removed account or a changed role
 * counts at once; undefined (and a redirect to the sign-in page already sent) when there is none.
 */
export async function signedIn(deps: AppDeps, request: FastifyRequest, reply: FastifyReply): Promise<SignedIn | undefined> {
  const staffId = request.session.staffId;
  const member = staffId ? await findStaff(deps.runtime.db, staffId) : undefined;
  if (!member) {
    await reply.redirect('/admin/login', 303);
    return undefined;
  }
  const actor = staffActor(member);
  return {
    actor,
    viewer: { email: member.email, role: member.role, csrfToken: reply.generateCsrf(), managesAccess: managesAccess(member.role) },
  };
}
