import type { FastifyReply } from 'fastify';
import { html } from '../edge/html/template.ts';
import type { Html } from '../edge/html/template.ts';
import { renderPage } from '../edge/html/document.ts';
import { contentSecurityPolicy } from '../edge/html/policy.ts';
import { sendHtml } from '../edge/html/respond.ts';
import { linkedStylesheet } from '../edge/html/stylesheet.ts';
import { ADMIN_FAVICON_PATH, SVG_TYPE } from './favicon.ts';
import { ADMIN_STYLESHEET, ADMIN_STYLESHEET_PATH } from './stylesheet.ts';
import { t } from './strings.ts';

export type NavItem = keyof typeof t.nav | 'account';

/** The person a page is rendered for, with the CSRF token every form of the page carries. */
export type Viewer = {
  email: string; role: string; csrfToken: string; managesAccess: boolean;
  /** Agents' calls waiting for a person: the badge beside Approvals in the navigation. */
  pendingApprovals: number;
};

export type AdminView = {
  title: string;
  main: Html;
  viewer?: Viewer;
  current?: NavItem;
};

/** The console's one stylesheet, served at ADMIN_STYLESHEET_PATH and linked from every page. */
export const ADMIN_SHEET = linkedStylesheet(ADMIN_STYLESHEET_PATH, ADMIN_STYLESHEET);

/**
 * No script at all, styles only from this origin, images also from http(s) hosts (an owner's product
 * photos), forms only to this origin, never inside a frame.
 */
export const ADMIN_POLICY = contentSecurityPolicy({ stylesheets: [ADMIN_SHEET], images: 'web', formActions: ["'self'"] });

/**
 * What every console answer carries, redirects included: its policy, and no copy kept by any cache (a page
 * may show a key or a customer's address). X-Frame-Options repeats frame-ancestors for older browsers.
 */
export const ADMIN_HEADERS = {
  'content-security-policy': ADMIN_POLICY,
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
} as const;

/** The sections in the order the navigation shows them; ownerOnly ones are hidden from other roles. */
const NAV: ReadonlyArray<{ key: keyof typeof t.nav; href: string; ownerOnly?: boolean }> = [
  { key: 'overview', href: '/admin/overview' },
  { key: 'activity', href: '/admin/activity' },
  { key: 'approvals', href: '/admin/approvals' },
  { key: 'orders', href: '/admin/orders' },
  { key: 'customers', href: '/admin/customers' },
  { key: 'products', href: '/admin/products' },
  { key: 'categories', href: '/admin/categories' },
  { key: 'discounts', href: '/admin/discounts' },
  { key: 'pages', href: '/admin/pages' },
  { key: 'services', href: '/admin/services' },
  { key: 'agents', href: '/admin/agents' },
  { key: 'keys', href: '/admin/keys', ownerOnly: true },
  { key: 'apps', href: '/admin/apps', ownerOnly: true },
  { key: 'policies', href: '/admin/policies', ownerOnly: true },
  { key: 'staff', href: '/admin/staff', ownerOnly: true },
  { key: 'settings', href: '/admin/settings' },
  { key: 'shipping', href: '/admin/shipping' },
  { key: 'import', href: '/admin/import', ownerOnly: true },
];

/** A hidden CSRF field for a form of this page. */
export function csrfField(viewer: Viewer): Html {
  return html`<input type="hidden" name="_csrf" value="${viewer.csrfToken}">`;
}

/** The whole console page, on the service's shared document shell. */
export function renderAdminDocument(view: AdminView): string {
  const { viewer } = view;
  const nav = viewer ? NAV.filter((item) => !item.ownerOnly || viewer.managesAccess) : [];
  return renderPage({
    lang: 'en',
    title: `${view.title} · ${t.product}`,
    stylesheets: [ADMIN_SHEET],
    icon: { href: ADMIN_FAVICON_PATH, type: SVG_TYPE },
    referrer: 'same-origin',
    skipLink: t.skip,
    mainId: 'content',
    chrome: html`<header class="bar">
<p class="brand">${t.product}</p>
${nav.length > 0 ? html`<nav class="main" aria-label="${t.nav.label}"><ul>${nav.map((item) => html`<li><a href="${item.href}"${item.key === view.current ? html` aria-current="page"` : ''}>${t.nav[item.key]}${item.key === 'approvals' && viewer && viewer.pendingApprovals > 0 ? html` <span class="badge">${viewer.pendingApprovals}<span class="skip-link"> ${t.approvals.waiting}</span></span>` : ''}</a></li>`)}<li><a href="/">${t.viewShop}</a></li></ul></nav>` : ''}
${viewer ? html`<div class="who"><span>${t.signedInAs} ${viewer.email} (${viewer.role})</span> <a href="/admin/account"${view.current === 'account' ? html` aria-current="page"` : ''}>${t.account.link}</a>
<form method="post" action="/admin/logout">${csrfField(viewer)}<button class="secondary" type="submit">${t.signOut}</button></form>
<form method="post" action="/admin/logout?everywhere=1">${csrfField(viewer)}<button class="secondary" type="submit">${t.signOutEverywhere}</button></form></div>` : ''}
</header>`,
    main: view.main,
  });
}

export function sendAdminPage(reply: FastifyReply, view: AdminView, status = 200): FastifyReply {
  reply.headers(ADMIN_HEADERS);
  return sendHtml(reply, { status, body: renderAdminDocument(view), policy: ADMIN_POLICY, cacheControl: 'no-store' });
}

/** A page that says why something was refused and what to do, as problem answers do. */
export function problemBox(detail: string, resolution?: string): Html {
  return html`<div class="problem" role="alert"><p><strong>${t.refused}:</strong> ${detail}</p>${resolution ? html`<p><strong>${t.resolution}:</strong> ${resolution}</p>` : ''}</div>`;
}

export function noticeBox(text: string): Html {
  return html`<div class="notice" role="status"><p>${text}</p></div>`;
}
