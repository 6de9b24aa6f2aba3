import type { TestApp } from '../helpers/app.ts';
import type { FastifyInstance } from 'fastify';
import { addStaff } from '../../src/access/staff.ts';
import type { StaffRole } from '../../src/access/staff-roles.ts';
import type { Db } from '../../src/db/client.ts';

export const PASSWORD = 'correct horse battery staple';

export async function addPerson(db: Db, email: string, role: StaffRole): Promise<void> {
  await addStaff(db, { email, role, password: PASSWORD });
}

/** The session cookie (name=value) a Set-Cookie header sets, or undefined. */
export function sessionCookie(setCookie: string | string[] | number | undefined): string | undefined {
  const all = [setCookie ?? []].flat().map(String);
  return all.find((line) => line.startsWith('butik_admin='))?.split(';')[0];
}

export async function signIn(app: FastifyInstance, email: string, password = PASSWORD, headers: Record<string, string> = {}, ip = '127.0.0.1') {
  const response = await app.inject({
    method: 'POST', url: '/admin/login', remoteAddress: ip, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams({ email, password }).toString(),
  });
  return { response, cookie: sessionCookie(response.headers['set-cookie']) };
}

/** GET a console page with the session cookie; the CSRF token of its forms, when it has any. */
export async function page(app: FastifyInstance, cookie: string, url: string) {
  const response = await app.inject({ method: 'GET', url, headers: { cookie } });
  const csrf = /name="_csrf" value="([^"]+)"/.exec(response.body)?.[1];
  return { response, csrf, cookie: sessionCookie(response.headers['set-cookie']) ?? cookie };
}

export async function post(app: FastifyInstance, cookie: string, url: string, form: Record<string, string>) {
  return app.inject({
    method: 'POST', url, headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(form).toString(),
  });
}

/** A multipart form as a browser sends it: fields and files, the way the import page's upload arrives. */
export async function postMultipart(app: FastifyInstance, cookie: string, url: string, fields: Record<string, string>, files: Array<{ name: string; text: string }> = []) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append('files', new Blob([file.text], { type: 'text/csv' }), file.name);
  const request = new Request('http://butik.test/', { method: 'POST', body: form });
  return app.inject({
    method: 'POST', url, headers: { cookie, 'content-type': request.headers.get('content-type') ?? '' }, payload: Buffer.from(await request.arrayBuffer()),
  });
}

/** A person with `role` added to the app's shop and signed in: their session cookie. */
export async function staffCookie(t: TestApp, email: string, role: StaffRole): Promise<string> {
  await addPerson(t.database.db, email, role);
  return (await signIn(t.app, email)).cookie ?? '';
}

const unescape = (text: string) => text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&#39;', '\'').replaceAll('&amp;', '&');

/**
 * Every field of the form posting to `action`, as a browser would send it without touching it (the buttons left
 * out): inputs with their values, ticked checkboxes as "on", textareas, and each select's chosen option.
 */
export function formFields(body: string, action: string): Record<string, string> {
  const start = body.search(new RegExp(`<form method="post" action="${action.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[ >]`));
  if (start < 0) throw new Error(`no form posts to ${action}`);
  const form = body.slice(start, body.indexOf('</form>', start));
  const fields: Record<string, string> = {};
  for (const [input] of form.matchAll(/<input [^>]*>/g)) {
    const name = /name="([^"]+)"/.exec(input)?.[1];
    if (!name) continue;
    if (/type="checkbox"/.test(input)) {
      if (/ checked/.test(input)) fields[unescape(name)] = /value="([^"]*)"/.exec(input)?.[1] ?? 'on';
      continue;
    }
    fields[unescape(name)] = unescape(/value="([^"]*)"/.exec(input)?.[1] ?? '');
  }
  for (const [, name, value] of form.matchAll(/<textarea [^>]*name="([^"]+)"[^>]*>([^<]*)<\/textarea>/g)) fields[unescape(name ?? '')] = unescape(value ?? '');
  for (const [, name, options] of form.matchAll(/<select [^>]*name="([^"]+)"[^>]*>(.*?)<\/select>/gs)) {
    fields[unescape(name ?? '')] = /<option value="([^"]*)" selected>/.exec(options ?? '')?.[1] ?? /<option value="([^"]*)"/.exec(options ?? '')?.[1] ?? '';
  }
  return fields;
}
