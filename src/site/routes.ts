import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Slug } from '../schema/common.ts';
import type { RoutePlugin } from '../deps.ts';
import { findPublishedPage, findPublishedService, listServices } from '../shop/content.ts';
import { loadChrome } from './chrome.ts';
import { SITE_FORM_POLICY, SITE_POLICY, STYLESHEET_PATH, renderDocument } from './document.ts';
import type { Chrome, PageView } from './document.ts';
import { renderGlassesSvg } from './glasses-svg.ts';
import { HTML_TYPE, SVG_IMAGE_POLICY } from '../edge/html/policy.ts';
import { sendCached, sendHtml } from '../edge/html/respond.ts';
import { CSS_TYPE } from '../edge/html/stylesheet.ts';
import { SITE_CSS } from './stylesheet.ts';
import { notFoundView, pageView, serviceView, servicesView } from './views.ts';
import { findShopCategory, findShopProduct, listShopCategories, listShopProducts } from './catalog-read.ts';
import { categoryView, frontPageView, PRODUCTS_PER_PAGE, productListView, productView } from './shop-views.ts';

const PAGE_MAX_AGE = 60;
const ASSET_MAX_AGE = 3600;
const DEMO_IMAGE_MAX_AGE = 86_400;

type Params = { slug: string };

/**
 * Public HTML: the shop (/, /products, /products/<slug>, /categories/<slug>), /info/<slug>, /services,
 * /services/<slug> (docs/behaviour.md#public-pages), the stylesheet and demo images. With UCP on, a product page
 * carries the Buy button that starts a checkout on the buyer's page (handoff/routes.ts).
 */
export const siteRoutes: RoutePlugin = async (app, { deps }) => {
  const db = deps.database.db;
  // Checkout sessions and their payment handlers exist only while UCP is on; so does the Buy button.
  const buyable = deps.config.ucp.mode !== 'off';
  app.get(STYLESHEET_PATH, async (request, reply) =>
    sendCached(request, reply, { type: CSS_TYPE, body: SITE_CSS, maxAgeSeconds: ASSET_MAX_AGE, policy: SITE_POLICY }));

  app.get<{ Params: { file: string } }>('/images/demo/:file', async (request, reply) => {
    const slug = /^(.+)\.svg$/.exec(request.params.file)?.[1];
    if (slug === undefined || !Slug.safeParse(slug).success) return renderNotFound(request, reply);
    return sendCached(request, reply, {
      type: 'image/svg+xml; charset=utf-8',
      body: renderGlassesSvg(slug),
      maxAgeSeconds: DEMO_IMAGE_MAX_AGE,
      policy: SVG_IMAGE_POLICY,
    });
  });

  app.get('/', async (request, reply) => {
    const [chrome, featured, categoryList] = await Promise.all([
      chromeFor(),
      listShopProducts(db, { featuredOnly: true, limit: 8, offset: 0 }),
      listShopCategories(db),
    ]);
    return sendPage(request, reply, chrome, frontPageView({
      storeName: chrome.storeName, tagline: chrome.tagline, featured: featured.products, categories: categoryList,
      currency: chrome.currency,
    }));
  });

  app.get('/products', async (request, reply) => {
    const page = pageOf(request);
    if (page === undefined) return renderNotFound(request, reply);
    const [chrome, listing, categoryList] = await Promise.all([
      chromeFor(),
      listShopProducts(db, { limit: PRODUCTS_PER_PAGE, offset: (page - 1) * PRODUCTS_PER_PAGE }),
      listShopCategories(db),
    ]);
    if (page > 1 && listing.products.length === 0) return renderNotFound(request, reply, chrome);
    return sendPage(request, reply, chrome, productListView(listing, { page, categories: categoryList, currency: chrome.currency }));
  });

  app.get<{ Params: Params }>('/products/:slug', async (request, reply) => {
    const product = await findShopProduct(db, request.params.slug);
    if (!product) return renderNotFound(request, reply);
    const chrome = await chromeFor();
    if (!buyable) return sendPage(request, reply, chrome, productView(product, deps.baseUrl, chrome.currency));
    // The Buy form carries this visitor's CSRF token, so the page is theirs alone and never cached.
    const view = productView(product, deps.baseUrl, chrome.currency, { csrfToken: reply.generateCsrf() });
    return sendHtml(reply, { body: renderDocument(chrome, view), policy: SITE_FORM_POLICY, cacheControl: 'no-store' });
  });

  app.get<{ Params: Params }>('/categories/:slug', async (request, reply) => {
    const page = pageOf(request);
    const category = page === undefined ? undefined : await findShopCategory(db, request.params.slug);
    if (!category || page === undefined) return renderNotFound(request, reply);
    const listing = await listShopProducts(db, { categorySlug: category.slug, limit: PRODUCTS_PER_PAGE, offset: (page - 1) * PRODUCTS_PER_PAGE });
    if (page > 1 && listing.products.length === 0) return renderNotFound(request, reply);
    const chrome = await chromeFor();
    return sendPage(request, reply, chrome, categoryView(category, listing, page, chrome.currency));
  });

  app.get<{ Params: Params }>('/info/:slug', async (request, reply) => {
    const page = await findPublishedPage(db, request.params.slug);
    if (!page) return renderNotFound(request, reply);
    return sendPage(request, reply, await chromeFor(), pageView(page));
  });

  app.get('/services', async (request, reply) => {
    const chrome = await chromeFor();
    if (!chrome.servicesListed) return renderNotFound(request, reply, chrome);
    const offerings = await listServices(db, 'published');
    return sendPage(request, reply, chrome, servicesView(offerings, chrome.storeName));
  });

  app.get<{ Params: Params }>('/services/:slug', async (request, reply) => {
    const chrome = await chromeFor();
    const offering = chrome.servicesListed ? await findPublishedService(db, request.params.slug) : undefined;
    if (!offering) return renderNotFound(request, reply, chrome);
    return sendPage(request, reply, chrome, serviceView(offering));
  });

  function chromeFor(): Promise<Chrome> {
    return loadChrome(db, deps.runtime.clock());
  }

  /** Drafts, unknown slugs and a switched-off listing all look the same: the styled 404 page. */
  async function renderNotFound(request: FastifyRequest, reply: FastifyReply, chrome?: Chrome): Promise<FastifyReply> {
    const path = request.url.split('?')[0] ?? '/';
    const frame = chrome ?? await chromeFor();
    const view = notFoundView(path.length > 200 ? `${path.slice(0, 200)}…` : path, { servicesListed: frame.servicesListed });
    // Never cached, so a page published a moment later shows at once.
    return sendHtml(reply, { status: 404, body: renderDocument(frame, view), policy: SITE_POLICY, cacheControl: 'no-cache' });
  }
};

const PageQuery = z.object({ page: z.string().regex(/^[1-9]\d{0,3}$/).transform(Number).optional() });

/** ?page=N (1 to 9999); anything else names no page. */
function pageOf(request: FastifyRequest): number | undefined {
  const parsed = PageQuery.safeParse(request.query);
  return parsed.success ? parsed.data.page ?? 1 : undefined;
}

function sendPage(request: FastifyRequest, reply: FastifyReply, chrome: Chrome, view: PageView): FastifyReply {
  return sendCached(request, reply, { type: HTML_TYPE, body: renderDocument(chrome, view), maxAgeSeconds: PAGE_MAX_AGE, policy: SITE_POLICY });
}
