import { createHmac } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import type { FastifyInstance } from 'fastify';

/** Where a family of forms keeps its visitor's CSRF secret: the cookie's name, path and SameSite, and the label its signing key is derived under. */
export type FormCsrfCookie = { name: string; path: string; sameSite: 'strict' | 'lax'; keyLabel: string };

/** The storefront's forms (the Buy button) and the buyer's checkout page share one cookie, so their tokens agree. */
export const STOREFRONT_CSRF: FormCsrfCookie = { name: 'butik_csrf', path: '/', sameSite: 'strict', keyLabel: 'butik storefront csrf cookie' };

/**
 * The forms under /oauth: the owner's consent page, and the buyer's sign-up and link pages of identity linking.
 * Their own cookie, kept under /oauth, and Lax: those pages are reached by the redirect chain a client or a
 * platform starts from another site.
 */
export const OAUTH_CSRF: FormCsrfCookie = { name: 'butik_oauth_csrf', path: '/oauth', sameSite: 'lax', keyLabel: 'butik oauth csrf cookie' };

/**
 * CSRF tokens for forms people fill in without a console session, in the cookie mode of @fastify/csrf-protection:
 * the secret lives in a signed, HttpOnly cookie, the token derived from it in the form. The signing secret is
 * derived from the master key, which every instance of a deployment shares, so a form rendered by one instance
 * posts to another. The console's forms use the same plugin with the secret in the staff session
 * (admin/session.ts): one token mechanism for every form, kept where the form's visitor already has state.
 */
export async function registerFormCsrf(
  app: FastifyInstance,
  options: { cookie: FormCsrfCookie; masterKey: string; secure: boolean },
): Promise<void> {
  const { cookie, masterKey, secure } = options;
  await app.register(fastifyCookie, { secret: createHmac('sha256', masterKey).update(cookie.keyLabel).digest('base64url') });
  await app.register(fastifyCsrf, {
    cookieKey: cookie.name,
    cookieOpts: { path: cookie.path, sameSite: cookie.sameSite, httpOnly: true, secure, signed: true },
  });
}

/** Whether an error is the CSRF plugin's refusal of a form (no secret cookie, or a token that does not match it). */
export function isCsrfRefusal(error: { code?: string }): boolean {
  return error.code === 'FST_CSRF_MISSING_SECRET' || error.code === 'FST_CSRF_INVALID_TOKEN';
}
