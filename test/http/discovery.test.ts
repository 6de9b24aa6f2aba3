import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBLEMS, PROBLEM_CODES } from '../../src/errors/problems.ts';
import { renderDocsPage } from '../../src/http/docs-page.ts';
import { BASE_URL, createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { expectProblem, send } from '../helpers/http.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

/** What an HTML page shows for a text: the escaping the pages apply. */
function shown(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** The page loads nothing from elsewhere and runs no script; its only style is the inline one its CSP allows. */
function expectSelfContained(html: string, csp: unknown): void {
  expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(/i);
  const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1] ?? '');
  expect(styles).toHaveLength(1);
  const hash = createHash('sha256').update(styles[0] ?? '').digest('base64');
  expect(String(csp)).toContain(`style-src 'sha256-${hash}'`);
  expect(String(csp)).toContain("default-src 'none'");
}

describe('GET /.well-known/api-catalog', () => {
  it('is an RFC 9727 linkset pointing at the OpenAPI document and /docs', async () => {
    const response = await send(t, { method: 'GET', url: '/.well-known/api-catalog' });
    expect(response.status).toBe(200);
    expect(String(response.headers['content-type'])).toMatch(/^application\/linkset\+json/);
    const { body } = response;
    const api = body.linkset[0];
    expect(api.anchor).toBe(`${BASE_URL}/api/v1`);
    expect(api['service-desc']).toEqual([expect.objectContaining({ href: `${BASE_URL}/api/v1/openapi.json` })]);
    expect(api['service-doc']).toEqual([expect.objectContaining({ href: `${BASE_URL}/docs`, type: 'text/html' })]);
    expect(body.linkset).toContainEqual(expect.objectContaining({
      anchor: `${BASE_URL}/.well-known/api-catalog`,
      item: expect.arrayContaining([{ href: `${BASE_URL}/api/v1` }, { href: `${BASE_URL}/api/mcp` }]),
    }));
  });

  it('links only to addresses the service answers', async () => {
    const { body } = await send(t, { method: 'GET', url: '/.well-known/api-catalog' });
    const hrefs: string[] = body.linkset.flatMap((entry: Record<string, unknown>) => Object.values(entry)
      .filter(Array.isArray).flat().map((link: { href: string }) => link.href));
    for (const href of hrefs.filter((h) => !h.endsWith('/api/v1') && !h.endsWith('/api/mcp'))) {
      const response = await send(t, { method: 'GET', url: href.replace(BASE_URL, '').replace(/#.*$/, '') });
      expect({ href, status: response.status }).toEqual({ href, status: 200 });
    }
  });

  it('answers HEAD with the api-catalog Link header', async () => {
    const response = await send(t, { method: 'HEAD', url: '/.well-known/api-catalog' });
    expect(response.status).toBe(200);
    expect(response.headers.link).toBe(`<${BASE_URL}/.well-known/api-catalog>; rel="api-catalog"`);
    expect(response.body).toBe('');
  });
});

describe('GET /docs', () => {
  it('documents every tool with its description, scope, anonymous flag and request fields', async () => {
    const response = await send(t, { method: 'GET', url: '/docs' });
    expect(response.status).toBe(200);
    expect(String(response.headers['content-type'])).toBe('text/html; charset=utf-8');
    const html = String(response.body);
    for (const tool of t.app.butik.registry.tools) {
      const start = html.indexOf(`<section id="${tool.name}">`);
      expect(start, tool.name).toBeGreaterThan(-1);
      const section = html.slice(start, html.indexOf('</section>', start));
      expect(section).toContain(shown(tool.description));
      expect(section).toContain(`scope <code>${tool.scope}</code>`);
      expect(section).toContain(tool.anonymous ? 'anonymous: no key needed' : 'needs an API key');
      const properties = Object.keys((tool.inputJsonSchema.properties ?? {}) as Record<string, unknown>);
      for (const field of properties) expect(section, `${tool.name}.${field}`).toContain(`<code>${field}</code>`);
    }
  });

  it('says how to get an API key: the key routes and the master key', async () => {
    const html = String((await send(t, { method: 'GET', url: '/docs' })).body);
    const section = html.slice(html.indexOf('<h2 id="keys">'));
    for (const route of ['POST /api/v1/keys', 'GET /api/v1/keys', 'POST /api/v1/keys/{id}/rotate', 'DELETE /api/v1/keys/{id}']) {
      expect(section).toContain(`<code>${route}</code>`);
    }
    expect(section).toContain('BUTIK_DATA_DIR/master.key');
  });

  it('loads no assets from anywhere and allows only its own inline style', async () => {
    const response = await send(t, { method: 'GET', url: '/docs' });
    expectSelfContained(String(response.body), response.headers['content-security-policy']);
  });

  it('lists every problem code with a link to its page', async () => {
    const html = String((await send(t, { method: 'GET', url: '/docs' })).body);
    for (const code of PROBLEM_CODES) expect(html).toContain(`<a href="${BASE_URL}/problems/${code}"><code>${code}</code></a>`);
  });

  it('escapes every text it takes from the OpenAPI document', () => {
    const hostile = '<script>alert("x")</script> & \'quoted\'';
    const html = renderDocsPage({
      openapi: '3.1.0',
      info: { title: hostile, version: hostile, description: hostile, license: { name: hostile } },
      'x-service-supported-scopes': [hostile],
      paths: {
        '/api/v1/tools/evil.tool': {
          post: {
            operationId: hostile,
            summary: hostile,
            description: hostile,
            'x-service-required-scope': hostile,
            requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { [hostile]: { type: 'string', description: hostile, examples: [hostile] } } } } } },
            responses: {},
          },
        },
      },
    }, BASE_URL);
    expect(html).not.toContain('<script>');
    expect(html).toContain(shown(hostile));
  });
});

describe('GET /problems/:code', () => {
  it.each(PROBLEM_CODES)('explains %s', async (code) => {
    const response = await send(t, { method: 'GET', url: `/problems/${code}` });
    expect(response.status).toBe(200);
    expect(String(response.headers['content-type'])).toBe('text/html; charset=utf-8');
    const html = String(response.body);
    const { status, title, resolution } = PROBLEMS[code];
    expect(html).toContain(`<h1>${shown(title)}</h1>`);
    expect(html).toContain(`HTTP status ${status}`);
    expect(html).toContain(shown(resolution));
    expectSelfContained(html, response.headers['content-security-policy']);
  });

  it('answers an unknown code with 404 not_found', async () => {
    const response = await send(t, { method: 'GET', url: '/problems/no_such_code' });
    expectProblem(response, 404, 'not_found');
  });
});
