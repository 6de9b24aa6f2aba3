import { Html, html } from './template.ts';
import type { Stylesheet } from './stylesheet.ts';

/**
 * What a page is made of, for any face that renders HTML: the storefront, the reference pages, the OAuth
 * consent page, an owner's console. The face decides its chrome (header, navigation, footer) and passes it
 * as markup; the shell only guarantees the parts every page must get right.
 */
export type PageShell = {
  /** The page's language (BCP 47): `da` for the Danish storefront, `en` for the developer pages. */
  lang: string;
  /** The whole document title, already composed (e.g. "Aviator Classic · Butik"). */
  title: string;
  /** The meta description search engines and link previews show; omitted when empty. */
  description?: string | null | undefined;
  /**
   * The page's stylesheets, in cascade order: a site's shared sheet first, then any extra one. Build the
   * page's Content-Security-Policy from the same list (contentSecurityPolicy) so the two always agree.
   */
  stylesheets: readonly Stylesheet[];
  /**
   * The Referer a browser sends from this page. `same-origin` keeps the Origin header on form posts (a
   * CSRF check needs it) without telling other sites where the visitor came from.
   */
  referrer?: 'same-origin' | 'no-referrer';
  /** The page's icon (a path on this origin); without one a browser asks for /favicon.ico on every page. */
  icon?: { href: string; type: string };
  /** A "skip to the content" link for keyboard users, first in the body; the label in the page's language. */
  skipLink?: string;
  /** Everything before <main>: banners, the header with its navigation, a console's sidebar. */
  chrome?: Html;
  /** The page's own content, inside <main>. */
  main: Html;
  /** The id the skip link targets and the class of <main> (a site's layout width). */
  mainId?: string;
  mainClass?: string;
  /** Everything after <main>: the footer. */
  footer?: Html;
};

const DEFAULT_MAIN_ID = 'main';

/** The complete document: doctype, language, viewport for phones, styles, skip link and the <main> landmark. */
export function renderPage(shell: PageShell): string {
  const mainId = shell.mainId ?? DEFAULT_MAIN_ID;
  const document = html`<!doctype html>
<html lang="${shell.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${shell.referrer ? html`<meta name="referrer" content="${shell.referrer}">\n` : ''}<title>${shell.title}</title>
${shell.description ? html`<meta name="description" content="${shell.description}">\n` : ''}${shell.icon ? html`<link rel="icon" href="${shell.icon.href}" type="${shell.icon.type}">\n` : ''}${shell.stylesheets.map((sheet, index) => html`${index > 0 ? '\n' : ''}${renderStylesheet(sheet)}`)}
</head>
<body>
${shell.skipLink ? html`<a class="skip-link" href="#${mainId}">${shell.skipLink}</a>\n` : ''}${shell.chrome ?? ''}
<main id="${mainId}"${shell.mainClass ? html` class="${shell.mainClass}"` : ''}>
${shell.main}
</main>
${shell.footer ?? ''}
</body>
</html>
`;
  return document.value;
}

function renderStylesheet(sheet: Stylesheet): Html {
  // An inline sheet is the service's own CSS, checked when it was made (inlineStylesheet), so it goes in as is.
  return sheet.kind === 'linked' ? html`<link rel="stylesheet" href="${sheet.href}">` : html`<style>${new Html(sheet.css)}</style>`;
}
