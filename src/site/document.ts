import type { ActiveAnnouncement } from '../shop/announcements.ts';
import { renderPage } from '../edge/html/document.ts';
import { contentSecurityPolicy } from '../edge/html/policy.ts';
import { linkedStylesheet } from '../edge/html/stylesheet.ts';
import { html, link } from '../edge/html/template.ts';
import type { Html } from '../edge/html/template.ts';
import { SITE_CSS } from './stylesheet.ts';

/** What every public page shows around its content; loaded once per request (see chrome.ts). */
export type Chrome = {
  storeName: string;
  tagline: string | null;
  contactEmail: string | null;
  /** Company address and CVR number: Danish web shops show who they are in the footer. */
  companyAddress: string | null;
  cvrNumber: string | null;
  announcement: ActiveAnnouncement | undefined;
  /** Published pages, linked from the header and footer. */
  pages: ReadonlyArray<{ slug: string; title: string }>;
  /** The services_listing feature flag: when off, /services is 404 and not linked. */
  servicesListed: boolean;
  /** ISO 4217: the currency every price on the page is in. */
  currency: string;
};

export type PageView = {
  /** The document title (before the store name). */
  title: string;
  description?: string | null | undefined;
  /** The path of this page, to mark the current navigation link; none on the 404 page. */
  path?: string;
  /** `no-referrer` on a page whose address is a capability (a checkout), so no link or image request carries it away. */
  referrer?: 'no-referrer';
  main: Html;
};

export const STYLESHEET_PATH = '/assets/site.css';

/** The storefront's one stylesheet, linked from every public page and served at STYLESHEET_PATH. */
export const SITE_STYLESHEET = linkedStylesheet(STYLESHEET_PATH, SITE_CSS);

/** No script runs on the public pages; styles only from here, images also from any web host (product photos). */
export const SITE_POLICY = contentSecurityPolicy({ stylesheets: [SITE_STYLESHEET], images: 'web' });

/** The same, for the pages with a form (the Buy button, the checkout): they post to this origin only. */
export const SITE_FORM_POLICY = contentSecurityPolicy({ stylesheets: [SITE_STYLESHEET], images: 'web', formActions: ["'self'"] });

/** The whole HTML document: landmarks header/nav/main/footer, lang="da", viewport for phones. */
export function renderDocument(chrome: Chrome, view: PageView): string {
  const navLinks = [
    { href: '/products', label: 'Alle varer' },
    ...(chrome.servicesListed ? [{ href: '/services', label: 'Ydelser' }] : []),
    ...chrome.pages.map((page) => ({ href: `/info/${page.slug}`, label: page.title })),
  ];
  const path = view.path;
  const isCurrent = (href: string) => path !== undefined && (path === href || path.startsWith(`${href}/`));
  return renderPage({
    lang: 'da',
    title: `${view.title} · ${chrome.storeName}`,
    description: view.description,
    ...(view.referrer ? { referrer: view.referrer } : {}),
    stylesheets: [SITE_STYLESHEET],
    skipLink: 'Gå til indholdet',
    mainId: 'indhold',
    mainClass: 'wrap',
    chrome: html`${chrome.announcement ? renderAnnouncement(chrome.announcement) : ''}<header class="site-header">
<div class="wrap header-inner">
<div class="brand-block"><p class="brand">${link('/', chrome.storeName)}</p>${chrome.tagline
    ? html`<p class="tagline">${chrome.tagline}</p>`
    : ''}</div>
${navLinks.length > 0 ? html`<nav class="site-nav" aria-label="Hovedmenu"><ul>${navLinks.map((item) =>
    html`<li>${link(item.href, item.label, { current: isCurrent(item.href) })}</li>`)}</ul></nav>` : ''}
</div>
</header>`,
    main: view.main,
    footer: html`<footer class="site-footer">
<div class="wrap">
${chrome.pages.length > 0 ? html`<nav aria-label="Information"><ul class="footer-links">${chrome.pages.map((page) =>
    html`<li>${link(`/info/${page.slug}`, page.title)}</li>`)}</ul></nav>` : ''}
${renderCompany(chrome)}
</div>
</footer>`,
  });
}

function renderCompany(chrome: Chrome): Html {
  const parts: Html[] = [
    html`<strong>${chrome.storeName}</strong>`,
    ...(chrome.companyAddress ? [html`${chrome.companyAddress}`] : []),
    ...(chrome.cvrNumber ? [html`CVR ${chrome.cvrNumber}`] : []),
    ...(chrome.contactEmail ? [link(`mailto:${chrome.contactEmail}`, chrome.contactEmail)] : []),
  ];
  return html`<address class="company">${parts.map((part, index) => (index === 0 ? part : html` · ${part}`))}</address>`;
}

function renderAnnouncement(announcement: ActiveAnnouncement): Html {
  return html`<aside class="announcement" aria-label="Meddelelse"><p class="wrap">${announcement.text}${announcement.linkUrl
    ? html` ${link(announcement.linkUrl, announcement.linkText ?? 'Læs mere')}`
    : ''}</p></aside>\n`;
}
