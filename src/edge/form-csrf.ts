import { createHmac } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import type { FastifyInstance } from 'fastify';

/** The cookie holding a visitor's CSRF secret on the public pages. */
export const FORM_CSRF_COOKIE = 'butik_csrf';

/**
 * CSRF tokens for forms people fill in without signing in (the shop's Buy button and checkout page), in the
 * cookie mode of @fastify/csrf-protection: the secret lives in a signed, HttpOnly, SameSite=Strict cookie, the
 * token derived from it in the form. The signing secret is derived from the master key, which every instance of
 * a deployment shares, so a form rendered by one instance posts to another.
 */
export async function registerFormCsrf(app: FastifyInstance, options: { masterKey: string; secure: boolean }): Promise<void> {
  await app.register(fastifyCookie, { secret: createHmac('sha256', options.masterKey).update('butik storefront csrf cookie').digest('base64url') });
  await app.register(fastifyCsrf, {
    cookieKey: FORM_CSRF_COOKIE,
    cookieOpts: { path: '/', sameSite: 'strict', httpOnly: true, secure: options.secure, signed: true },
  });
}

/** Whether an error is the CSRF plugin's refusal of a form (no secret cookie, or a token that does not match it). */
export function isCsrfRefusal(error: { code?: string }): boolean {
  return error.code === 'FST_CSRF_MISSING_SECRET' || error.code === 'FST_CSRF_INVALID_TOKEN';
}
