import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { seedDemoStore } from '../../src/seed/demo.ts';
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

/** A test app holding the demo shop, with one person of `role` signed in: the app and their session cookie. */
export async function demoShopSignedIn(email: string, role: StaffRole): Promise<{ t: TestApp; cookie: string }> {
  const t = await createTestApp();
  await seedDemoStore(t.database.db, { baseUrl: 'http://butik.test' });
  return { t, cookie: await staffCookie(t, email, role) };
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#x27;': "'" };
const decoded = (text: string) => text.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (entity) => ENTITIES[entity] ?? entity);

/**
 * The fields a browser would send for the post form whose action is `action` on a page, as rendered: inputs with
 * their values (a checkbox only when checked), textareas (with CRLF line breaks, as browsers send them) and selected
 * options. A submit button's name is left out.
 */
export function formFields(body: string, action: string): Record<string, string> {
  const start = body.indexOf(`<form method="post" action="${action}"`);
  if (start < 0) throw new Error(`no form posting to ${action}`);
  const form = body.slice(start, body.indexOf('</form>', start));
  const fields: Record<string, string> = {};
  for (const [tag] of form.matchAll(/<input\b[^>]*>/g)) {
    const name = /\bname="([^"]*)"/.exec(tag)?.[1];
    if (name === undefined) continue;
    const type = /\btype="([^"]*)"/.exec(tag)?.[1] ?? 'text';
    if (type === 'checkbox' || type === 'radio') {
      if (/\bchecked\b/.test(tag)) fields[name] = decoded(/\bvalue="([^"]*)"/.exec(tag)?.[1] ?? 'on');
      continue;
    }
    fields[name] = decoded(/\bvalue="([^"]*)"/.exec(tag)?.[1] ?? '');
  }
  for (const match of form.matchAll(/<textarea\b[^>]*\bname="([^"]*)"[^>]*>([^<]*)<\/textarea>/g)) fields[match[1] ?? ''] = decoded(match[2] ?? '').replace(/\r?\n/g, '\r\n');
  for (const match of form.matchAll(/<select\b[^>]*\bname="([^"]*)"[^>]*>([\s\S]*?)<\/select>/g)) {
    fields[match[1] ?? ''] = decoded(/<option value="([^"]*)" selected>/.exec(match[2] ?? '')?.[1] ?? /<option value="([^"]*)"/.exec(match[2] ?? '')?.[1] ?? '');
  }
  return fields;
}
