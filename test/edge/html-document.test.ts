import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { renderPage } from '../../src/edge/html/document.ts';
import { SVG_IMAGE_POLICY, contentSecurityPolicy, htmlHeaders } from '../../src/edge/html/policy.ts';
import { inlineStylesheet, linkedStylesheet } from '../../src/edge/html/stylesheet.ts';
import { html, join } from '../../src/edge/html/template.ts';
import { ESCAPED_PAYLOAD, PAYLOAD, expectInert } from '../site/html-checks.ts';

const SHEET = linkedStylesheet('/assets/console.css', 'body { margin: 0 }');

describe('the page shell', () => {
  it('writes doctype, language, viewport, title, stylesheets, skip link and the main landmark in order', () => {
    const page = renderPage({
      lang: 'en', title: 'Orders · Console', description: 'All orders', stylesheets: [SHEET, inlineStylesheet('p { color: red }')],
      referrer: 'same-origin', skipLink: 'Skip to the content', chrome: html`<nav aria-label="Console">x</nav>`,
      main: html`<h1>Orders</h1>`, mainClass: 'wrap', footer: html`<footer>f</footer>`,
    });
    expect(page.startsWith('<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
      + '<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta name="referrer" content="same-origin">\n'
      + '<title>Orders · Console</title>\n<meta name="description" content="All orders">\n'
      + '<link rel="stylesheet" href="/assets/console.css">\n<style>p { color: red }</style>\n</head>')).toBe(true);
    expect(page).toContain('<body>\n<a class="skip-link" href="#main">Skip to the content</a>\n<nav aria-label="Console">x</nav>\n'
      + '<main id="main" class="wrap">\n<h1>Orders</h1>\n</main>\n<footer>f</footer>\n</body>\n</html>\n');
  });

  it('escapes the title, the description and the language, which may come from a shop owner', () => {
    const page = renderPage({ lang: PAYLOAD, title: PAYLOAD, description: PAYLOAD, stylesheets: [], main: html`${PAYLOAD}` });
    expectInert(page);
    expect(page).toContain(`<title>${ESCAPED_PAYLOAD}</title>`);
    expect(page).toContain(`<main id="main">\n${ESCAPED_PAYLOAD}\n</main>`);
  });

  it('leaves out the optional parts when they are not given', () => {
    const page = renderPage({ lang: 'da', title: 'T', stylesheets: [SHEET], main: html`m` });
    expect(page).not.toMatch(/skip-link|name="description"|name="referrer"/);
  });
});

describe('stylesheets', () => {
  it('refuses an inline sheet that could close its element, and a linked sheet from another origin', () => {
    expect(() => inlineStylesheet('a {} </style><script>')).toThrow(/<\/style/);
    expect(() => linkedStylesheet('https://cdn.example/x.css', '')).toThrow(/this origin/);
    expect(() => linkedStylesheet('//cdn.example/x.css', '')).toThrow(/this origin/);
  });
});

describe('the content security policy', () => {
  it('admits a linked sheet as self and an inline one by its hash, and runs no script', () => {
    const css = 'h1 { color: blue }';
    const hash = createHash('sha256').update(css).digest('base64');
    expect(contentSecurityPolicy({ stylesheets: [SHEET, inlineStylesheet(css)] }))
      .toBe(`default-src 'none'; style-src 'self' 'sha256-${hash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`);
  });

  it('names image hosts and form targets only when a page asks for them', () => {
    expect(contentSecurityPolicy({ stylesheets: [SHEET], images: 'web' }))
      .toBe("default-src 'none'; style-src 'self'; img-src 'self' https: http: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    expect(contentSecurityPolicy({ stylesheets: [SHEET], images: 'self', formActions: ["'self'", 'https://client.example'] }))
      .toBe("default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self' https://client.example; frame-ancestors 'none'");
    expect(contentSecurityPolicy({ stylesheets: [SHEET], images: 'https' }))
      .toBe("default-src 'none'; style-src 'self'; img-src 'self' https:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    expect(SVG_IMAGE_POLICY).toMatch(/^default-src 'none'; /);
  });

  it('comes with the HTML type and nosniff in one set of headers', () => {
    expect(htmlHeaders('p')).toEqual({ 'content-type': 'text/html; charset=utf-8', 'x-content-type-options': 'nosniff', 'content-security-policy': 'p' });
  });
});

describe('join', () => {
  it('puts the separator between parts only, escaping text parts and keeping markup', () => {
    expect(join([html`<li>a</li>`, '<b>', html`<li>c</li>`], '\n').value).toBe('<li>a</li>\n&lt;b&gt;\n<li>c</li>');
    expect(join([], ', ').value).toBe('');
  });
});
