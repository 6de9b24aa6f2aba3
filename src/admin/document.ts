import type { FastifyReply } from 'fastify';
import { html } from '../edge/html/template.ts';
import type { Html } from '../edge/html/template.ts';
import { ADMIN_STYLESHEET_PATH } from './stylesheet.ts';
import { t } from './strings.ts';

export type NavItem = keyof typeof t.nav;

/** The person a page is rendered for, with the CSRF token every form of the page carries. */
export type Viewer = { email: string; role: string; csrfToken: string; managesAccess: boolean };

export type AdminView = {
  title: string;
  main: Html;
  viewer?: Viewer;
  current?: NavItem;
};

/**
 * No script at all, styles and images only from this origin (product images also from http(s) hosts), forms
 * only to this origin, never inside a frame.
 */
export const ADMIN_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'self'; img-src 'self' https: http: data:; form-action 'self'; "
    + "base-uri 'none'; frame-ancestors 'none'",
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
} as const;

const NAV: ReadonlyArray<{ key: NavItem; href: string }> = [
  { key: 'overview', href: '/admin/overview' },
  { key: 'activity', href: '/admin/activity' },
  { key: 'orders', href: '/admin/orders' },
  { key: 'products', href: '/admin/products' },
  { key: 'keys', href: '/admin/keys' },
];

/** A hidden CSRF field for a form of this page. */
export function csrfField(viewer: Viewer): Html {
  return html`<input type="hidden" name="_csrf" value="${viewer.csrfToken}">`;
}

/** The whole console page. The one boundary to the shared document shell, once there is one. */
export function renderAdminDocument(view: AdminView): string {
  const { viewer } = view;
  const nav = viewer ? NAV.filter((item) => item.key !== 'keys' || viewer.managesAccess) : [];
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${view.title} · ${t.product}</title>
<link rel="stylesheet" href="${ADMIN_STYLESHEET_PATH}">
</head>
<body>
<a class="skip-link" href="#content">${t.skip}</a>
<header class="bar">
<p class="brand">${t.product}</p>
${nav.length > 0 ? html`<nav class="main" aria-label="${t.nav.label}"><ul>${nav.map((item) => html`<li><a href="${item.href}"${item.key === view.current ? html` aria-current="page"` : ''}>${t.nav[item.key]}</a></li>`)}</ul></nav>` : ''}
${viewer ? html`<div class="who"><span>${t.signedInAs} ${viewer.email} (${viewer.role})</span>
<form method="post" action="/admin/logout">${csrfField(viewer)}<button class="secondary" type="submit">${t.signOut}</button></form>
<form method="post" action="/admin/logout?everywhere=1">${csrfField(viewer)}<button class="secondary" type="submit">${t.signOutEverywhere}</button></form></div>` : ''}
</header>
<main id="content">
${view.main}
</main>
</body>
</html>
`.value;
}

export function sendAdminPage(reply: FastifyReply, view: AdminView, status = 200): FastifyReply {
  return reply.code(status).headers(ADMIN_HEADERS).header('content-type', 'text/html; charset=utf-8').send(renderAdminDocument(view));
}

/** A page that says why something was refused and what to do, as problem answers do. */
export function problemBox(detail: string, resolution?: string): Html {
  return html`<div class="problem" role="alert"><p><strong>${t.refused}:</strong> ${detail}</p>${resolution ? html`<p><strong>${t.resolution}:</strong> ${resolution}</p>` : ''}</div>`;
}

export function noticeBox(text: string): Html {
  return html`<div class="notice" role="status"><p>${text}</p></div>`;
}
