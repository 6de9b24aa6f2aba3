import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { sendHtml } from '../../edge/html/respond.ts';
import { findPage } from '../../shop/content.ts';
import { loadChrome } from '../../site/chrome.ts';
import { SITE_POLICY, renderDocument } from '../../site/document.ts';
import { pageView } from '../../site/views.ts';
import { readTool } from '../call.ts';
import { t } from '../strings.ts';
import { pagePath } from './pages.ts';

/**
 * What a preview answer carries besides the console's headers: the storefront's policy (its stylesheet), and
 * no copy kept or indexed anywhere, since a draft is not public.
 */
const PREVIEW_HEADERS = { 'cache-control': 'no-store', 'x-robots-tag': 'noindex, nofollow, noarchive' } as const;

/**
 * /admin/pages/<slug>/preview: the page, draft or published, rendered by the storefront's own renderer with
 * the shop's header and footer, so what the console shows is what /info/<slug> will show. It lives under
 * /admin because only there does the browser send the console's session cookie.
 */
export function pagePreviewRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get<{ Params: { slug: string } }>('/admin/pages/:slug/preview', async (request, reply) => {
    const who = request.staff;
    // pages.get_layout is the scope check and the 404; the row itself comes from shop/, as the storefront reads it.
    await readTool(deps, request, who.actor, 'pages.get_layout', { slug: request.params.slug });
    const db = deps.runtime.db;
    const [page, chrome] = await Promise.all([findPage(db, request.params.slug), loadChrome(db, deps.runtime.clock())]);
    // The banner slot says what this is and leads back; the shop's own banner would show here on the live page.
    const framed = { ...chrome, announcement: { text: t.pages.previewBanner, linkUrl: pagePath(page.slug), linkText: t.pages.previewBack } };
    reply.headers(PREVIEW_HEADERS);
    return sendHtml(reply, { body: renderDocument(framed, pageView(page)), policy: SITE_POLICY, cacheControl: 'no-store' });
  });
}
