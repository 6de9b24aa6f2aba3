import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { ExtraConfigColumn } from 'drizzle-orm/pg-core';
import {
  bigint, boolean, customType, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text,
  timestamp, uniqueIndex,
} from 'drizzle-orm/pg-core';

/** Money and counters are bigint so the API's integer maximum (2^53 − 1) fits; read as JS numbers. */
const int53 = (name: string) => bigint(name, { mode: 'number' });
const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const id = () => text('id').primaryKey().$defaultFn(() => randomUUID());
/**
 * The database's clock, at the precision a JS Date holds. now() alone keeps microseconds, which a row read
 * into JS (an audit snapshot, say) cannot carry: audit.revert would then restore a different instant.
 */
export const NOW_MS = sql`date_trunc('milliseconds', now())`;
const createdAt = () => at('created_at').notNull().default(NOW_MS);
const updatedAt = () => at('updated_at').notNull().default(NOW_MS);

/**
 * The stable sort "newest first, ties by id" as index columns. PostgreSQL reads a plain `ORDER BY x DESC`
 * as DESC NULLS FIRST; an index built DESC NULLS LAST (Drizzle's default for .desc()) cannot serve it.
 */
function newestFirst(t: { createdAt: ExtraConfigColumn; id: ExtraConfigColumn }) {
  return [t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()] as const;
}

/**
 * A text column as the full-text parser should see it. The default parser reads "sort/grøn" as one file-path
 * token ('sort/gr', 'øn') and "a.b" as a host name; with those separators turned into spaces every word is a word.
 */
function searchable(column: string) {
  return sql.raw(`translate(coalesce(${column}, ''), '/\\.@:_+', '       ')`);
}

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export type ProductImage = { url: string; alt?: string; sourceId?: string };
export type AttributeValue = string | number | boolean | Array<string | number | boolean>;

export const categories = pgTable('categories', {
  id: id(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  description: text('description'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  /** Soft delete keeps the rows that soft-deleted products still reference. */
  deletedAt: at('deleted_at'),
});

/** The units at or below which a product counts as low on stock (the console's overview lists it). */
export const LOW_STOCK_UNITS = 5;

/** Stored with fillfactor 90 (drizzle/0002_search_indexes.sql), so stock updates at checkout can be HOT updates. */
export const products = pgTable('products', {
  id: id(),
  slug: text('slug').notNull().unique(),
  /** The merchant's own product id (stock-keeping unit), e.g. from `butik import`; optional, unique when set. */
  sku: text('sku').unique(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  brand: text('brand'),
  priceDkk: int53('price_dkk').notNull(),
  stock: int53('stock').notNull(),
  featured: boolean('featured').notNull().default(false),
  frameColor: text('frame_color'),
  lensColor: text('lens_color'),
  images: jsonb('images').$type<ProductImage[]>().notNull().default([]),
  categoryId: text('category_id').notNull().references(() => categories.id),
  attributes: jsonb('attributes').$type<Record<string, AttributeValue>>().notNull().default({}),
  answerSummary: text('answer_summary'),
  faq: jsonb('faq').$type<Array<{ q: string; a: string }>>().notNull().default([]),
  useCases: jsonb('use_cases').$type<Array<{ title: string; description: string }>>().notNull().default([]),
  comparisonFacts: jsonb('comparison_facts').$type<Record<string, string>>().notNull().default({}),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  deletedAt: at('deleted_at'),
  /**
   * The name of the product's category, copied here by two triggers (see the migration that adds it): on a product's
   * insert or change of category, and on a category's rename. search_vector needs it, and a generated column can read
   * only its own row. Derived data: writes, snapshots and answers leave it out (PRODUCT_COLUMNS).
   */
  searchCategory: text('search_category'),
  /**
   * Weighted full-text document: name (A); brand, frame and lens colour and the category's name (B);
   * description (C). Maintained by PostgreSQL. A shopper's words often name the colour ("black") or the kind
   * of product ("sunglasses"), which the name and description need not repeat.
   */
  searchVector: tsvector('search_vector').generatedAlwaysAs(sql`
    setweight(to_tsvector('simple', ${searchable('name')}), 'A') ||
    setweight(to_tsvector('simple', ${searchable('brand')}), 'B') ||
    setweight(to_tsvector('simple', ${searchable('frame_color')}), 'B') ||
    setweight(to_tsvector('simple', ${searchable('lens_color')}), 'B') ||
    setweight(to_tsvector('simple', ${searchable('search_category')}), 'B') ||
    setweight(to_tsvector('simple', ${searchable('description')}), 'C')`),
  /**
   * The name alone, for the best relevance classes of products.search. Also a key column of
   * products_visible_newest_idx, so a search for name words walks that index without reading table rows.
   */
  nameVector: tsvector('name_vector').generatedAlwaysAs(sql`to_tsvector('simple', ${searchable('name')})`),
  /**
   * The stock while it is LOW_STOCK_UNITS or fewer, else null: the key of products_low_stock_idx, which hands the
   * console's low-stock panel its few lowest products without reading the rest. An index on `stock` itself would
   * make every checkout's stock decrement a full (non-HOT) update of all the table's indexes; this column stays
   * null, unchanged, while a product has plenty, so those decrements stay HOT.
   */
  lowStock: integer('low_stock').generatedAlwaysAs(sql`case when stock <= ${sql.raw(String(LOW_STOCK_UNITS))} then stock end`),
}, (t) => [
  index('products_search_idx').using('gin', t.searchVector),
  index('products_name_search_idx').using('gin', t.nameVector),
  index('products_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
  // Every ordered index ends in the catalog's stable sort, created_at DESC, id DESC. NULLS FIRST is what a
  // plain DESC means in PostgreSQL: with NULLS LAST the planner cannot walk the index for that ORDER BY.
  // name_vector rides along as a last key column (Drizzle has no INCLUDE): a search for a name word walks this
  // index newest first and tests each name without reading the wide table row (an index-only scan).
  index('products_visible_newest_idx').on(...newestFirst(t), t.nameVector).where(sql`${t.deletedAt} is null`),
  index('products_category_idx').on(t.categoryId, ...newestFirst(t)).where(sql`${t.deletedAt} is null`),
  // Not partial: the planner takes statistics for lower(...) only from an expression index over the whole table.
  index('products_brand_idx').on(sql`lower(${t.brand})`, ...newestFirst(t)),
  index('products_frame_color_idx').on(sql`lower(${t.frameColor})`, ...newestFirst(t)),
  index('products_lens_color_idx').on(sql`lower(${t.lensColor})`, ...newestFirst(t)),
  // Holds only the low products, lowest first: the overview's panel reads its first entries and stops.
  index('products_low_stock_idx').on(t.lowStock, t.slug).where(sql`${t.lowStock} is not null and ${t.deletedAt} is null`),
  index('products_price_idx').on(t.priceDkk).where(sql`${t.deletedAt} is null`),
  index('products_featured_idx').on(t.featured, ...newestFirst(t)).where(sql`${t.deletedAt} is null`),
]);

export const apiKeys = pgTable('api_keys', {
  id: id(),
  name: text('name').notNull(),
  /** First characters of the secret, for display only. */
  prefix: text('prefix').notNull(),
  /** SHA-256 of the whole secret, hex; looked up by index, never compared in JS. */
  hash: text('hash').notNull(),
  scopes: jsonb('scopes').$type<string[]>().notNull(),
  createdAt: createdAt(),
  expiresAt: at('expires_at'),
  lastUsedAt: at('last_used_at'),
  revokedAt: at('revoked_at'),
}, (t) => [uniqueIndex('api_keys_hash_idx').on(t.hash)]);

/**
 * Agents a person has paused: `key:<api key id>` or `app:<OAuth client id>`. A row here refuses every call of
 * that agent (access/agent-pauses.ts); every instance keeps the table in memory and drops it on the change feed.
 */
export const agentPauses = pgTable('agent_pauses', {
  agent: text('agent').primaryKey(),
  pausedAt: at('paused_at').notNull(),
  /** The person (or the master key) who paused it, as audit entries name actors. */
  pausedBy: text('paused_by').notNull(),
});

export const STAFF_ROLES = ['owner', 'manager', 'viewer'] as const;

/** People who sign in to /admin; a role stands for a set of tool scopes (access/staff-roles.ts). */
export const staff = pgTable('staff', {
  id: id(),
  /** Lower-cased, so one person cannot hold two accounts that differ only in case. */
  email: text('email').notNull(),
  role: text('role', { enum: STAFF_ROLES }).notNull(),
  /** scrypt with its salt and cost parameters (access/passwords.ts); never the password. */
  passwordHash: text('password_hash').notNull(),
  /** Set by each successful sign-in (and an accepted invitation), so the Staff page shows who still uses the console. */
  lastSignInAt: at('last_sign_in_at'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [uniqueIndex('staff_email_idx').on(t.email)]);

/**
 * Console sessions, in the database so every instance knows them. The row is keyed by a SHA-256 of the
 * session id, so a copy of the table signs nobody in; deleting a person deletes their sessions.
 */
export const staffSessions = pgTable('staff_sessions', {
  idHash: text('id_hash').primaryKey(),
  staffId: text('staff_id').references(() => staff.id, { onDelete: 'cascade' }),
  data: jsonb('data').notNull(),
  /** The idle deadline: moved forward on every request, the session is gone once it passes. */
  expiresAt: at('expires_at').notNull(),
  createdAt: createdAt(),
}, (t) => [index('staff_sessions_staff_idx').on(t.staffId), index('staff_sessions_expires_idx').on(t.expiresAt)]);

/**
 * Shoppers' own accounts (docs/ucp.md#identity-linking): created on the shop's sign-up page and used to link
 * the account to a UCP platform. Kept apart from `customers` (the merchant's records) because nobody has proved
 * that the e-mail is theirs: Butik sends no mail, so an account's e-mail is a claim, never a key to records.
 */
export const buyers = pgTable('buyers', {
  id: id(),
  /** Lower-cased, so one person cannot hold two accounts that differ only in case. */
  email: text('email').notNull(),
  /** scrypt with its salt and cost parameters (access/passwords.ts), as for staff; never the password. */
  passwordHash: text('password_hash').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [uniqueIndex('buyers_email_idx').on(t.email)]);

/**
 * One-time links that create the first owner in the browser, printed by `npm start` while there is none.
 * Only a SHA-256 of the token is kept, so a copy of the table opens nothing; the first one used removes all.
 */
export const staffSetupTokens = pgTable('staff_setup_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  expiresAt: at('expires_at').notNull(),
  createdAt: createdAt(),
});

/**
 * An owner's invitation of one person with one role (access/staff-invitations.ts). Only a SHA-256 of the
 * link's token is kept, like the setup links; a used invitation stays with its usedAt so its link can say
 * plainly that it was used rather than that it is unknown.
 */
export const staffInvitations = pgTable('staff_invitations', {
  id: id(),
  tokenHash: text('token_hash').notNull(),
  email: text('email').notNull(),
  role: text('role', { enum: STAFF_ROLES }).notNull(),
  expiresAt: at('expires_at').notNull(),
  usedAt: at('used_at'),
  /** Set when an owner withdraws the invitation or invites the same e-mail again: the link then opens nothing. */
  cancelledAt: at('cancelled_at'),
  createdAt: createdAt(),
}, (t) => [uniqueIndex('staff_invitations_token_idx').on(t.tokenHash)]);

export const discounts = pgTable('discounts', {
  id: id(),
  code: text('code').notNull().unique(),
  /** What a buyer reads for the code, e.g. "10% Off"; optional. */
  title: text('title'),
  type: text('type', { enum: ['percent', 'fixed'] }).notNull(),
  value: int53('value').notNull(),
  validUntil: at('valid_until'),
  usageLimit: int53('usage_limit'),
  usageCount: int53('usage_count').notNull().default(0),
  active: boolean('active').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [index('discounts_newest_idx').on(t.createdAt.desc(), t.id.desc())]);

export const carts = pgTable('carts', {
  id: id(),
  status: text('status', { enum: ['open', 'closed'] }).notNull().default('open'),
  discountCode: text('discount_code'),
  orderId: text('order_id'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const cartItems = pgTable('cart_items', {
  cartId: text('cart_id').notNull().references(() => carts.id, { onDelete: 'cascade' }),
  productId: text('product_id').notNull().references(() => products.id),
  quantity: integer('quantity').notNull(),
  addedAt: at('added_at').notNull().default(NOW_MS),
}, (t) => [primaryKey({ columns: [t.cartId, t.productId] })]);

export const orders = pgTable('orders', {
  id: id(),
  userId: text('user_id'),
  email: text('email').notNull(),
  status: text('status').notNull(),
  shippingName: text('shipping_name').notNull(),
  shippingAddress: text('shipping_address').notNull(),
  shippingZip: text('shipping_zip').notNull(),
  shippingCity: text('shipping_city').notNull(),
  billingName: text('billing_name'),
  billingAddress: text('billing_address'),
  billingZip: text('billing_zip'),
  billingCity: text('billing_city'),
  billingCountry: text('billing_country'),
  phoneNumber: text('phone_number'),
  subtotalDkk: int53('subtotal_dkk').notNull(),
  shippingDkk: int53('shipping_dkk').notNull(),
  discountDkk: int53('discount_dkk').notNull(),
  totalDkk: int53('total_dkk').notNull(),
  vatOere: int53('vat_oere'),
  invoiceProvider: text('invoice_provider'),
  invoiceId: text('invoice_id'),
  invoicePdfUrl: text('invoice_pdf_url'),
  discountCode: text('discount_code'),
  isAiGenerated: boolean('is_ai_generated').notNull().default(false),
  aiAgentSource: text('ai_agent_source'),
  carrier: text('carrier'),
  trackingNumber: text('tracking_number'),
  trackingUrl: text('tracking_url'),
  estDeliveryFrom: at('est_delivery_from'),
  estDeliveryTo: at('est_delivery_to'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  processorPaymentIntentId: text('processor_payment_intent_id'),
  paymentMethod: text('payment_method'),
  paidAt: at('paid_at'),
  currency: text('currency').notNull().default('DKK'),
  fxRate: doublePrecision('fx_rate').notNull().default(1),
  channel: text('channel').notNull(),
  acpSessionId: text('acp_session_id'),
  /** The UCP checkout session that placed the order, and where it ships (docs/ucp.md#orders-and-events). */
  ucpCheckoutId: text('ucp_checkout_id'),
  shippingRegion: text('shipping_region'),
  shippingCountry: text('shipping_country'),
  confirmationEmailSentAt: at('confirmation_email_sent_at'),
  refundedAt: at('refunded_at'),
  disputedAt: at('disputed_at'),
}, (t) => [
  // Keyset-friendly: each filter of orders.list, then the stable sort (see newestFirst).
  index('orders_newest_idx').on(...newestFirst(t)),
  index('orders_status_idx').on(t.status, ...newestFirst(t)),
  index('orders_email_idx').on(sql`lower(${t.email})`, ...newestFirst(t)),
]);

export const orderItems = pgTable('order_items', {
  id: id(),
  orderId: text('order_id').notNull().references(() => orders.id, { onDelete: 'cascade' }),
  productId: text('product_id').notNull().references(() => products.id),
  productName: text('product_name').notNull(),
  unitPriceDkk: int53('unit_price_dkk').notNull(),
  quantity: integer('quantity').notNull(),
  variantId: text('variant_id'),
  variantSku: text('variant_sku'),
  variantAttributes: jsonb('variant_attributes'),
}, (t) => [index('order_items_order_idx').on(t.orderId), index('order_items_product_idx').on(t.productId)]);

/** A refund of an order: how much, whether its items went back in stock, why, and who gave it (docs/behaviour.md#refunds). */
export const orderRefunds = pgTable('order_refunds', {
  id: id(),
  orderId: text('order_id').notNull().references(() => orders.id, { onDelete: 'cascade' }),
  /** Øre, never more than what the order's total still had unrefunded. */
  amount: int53('amount').notNull(),
  /** The lines put back in stock: [{ productId, quantity }], empty when nothing was restocked. */
  restocked: jsonb('restocked').notNull().default([]),
  reason: text('reason'),
  /** Who refunded, as audit entries name them: actor kind, name and key id. */
  actorKind: text('actor_kind', { enum: ['master', 'key', 'cli', 'anonymous', 'staff'] }).notNull(),
  actorName: text('actor_name').notNull(),
  actorKeyId: text('actor_key_id'),
  /**
   * 1 for an order's first refund, then 2, 3…: taken under the order's row lock, so it orders an order's refunds
   * even when two share a millisecond (a clock never does that job alone).
   */
  number: integer('number').notNull(),
  createdAt: createdAt(),
}, (t) => [uniqueIndex('order_refunds_order_number_idx').on(t.orderId, t.number)]);

export const auditEntries = pgTable('audit_entries', {
  id: id(),
  at: at('at').notNull().default(NOW_MS),
  actorKind: text('actor_kind', { enum: ['master', 'key', 'cli', 'anonymous', 'staff'] }).notNull(),
  actorKeyId: text('actor_key_id'),
  actorName: text('actor_name').notNull(),
  channel: text('channel', { enum: ['rest', 'mcp', 'cli', 'admin'] }).notNull(),
  tool: text('tool').notNull(),
  targetType: text('target_type').notNull(),
  targetId: text('target_id').notNull(),
  before: jsonb('before'),
  after: jsonb('after'),
  /** Set on an entry once it has been undone; the id of the entry that recorded the revert. */
  revertedBy: text('reverted_by'),
  /** On a revert entry: the entry it undid. */
  revertOf: text('revert_of'),
  /** On an entry written by an approved call: the person who approved it (the actor is the agent). */
  approvedBy: text('approved_by'),
}, (t) => [
  index('audit_newest_idx').on(t.at.desc(), t.id.desc()),
  index('audit_target_idx').on(t.targetId, t.at.desc()),
  index('audit_tool_idx').on(t.tool, t.at.desc()),
]);

export const idempotencyKeys = pgTable('idempotency_keys', {
  caller: text('caller').notNull(),
  key: text('key').notNull(),
  tool: text('tool').notNull(),
  requestHash: text('request_hash').notNull(),
  state: text('state', { enum: ['running', 'done'] }).notNull(),
  responseStatus: integer('response_status'),
  responseBody: text('response_body'),
  createdAt: createdAt(),
  /** A running claim is its owner's only while this lies ahead; the owner renews it while it works. */
  leaseUntil: at('lease_until'),
}, (t) => [primaryKey({ columns: [t.caller, t.key] }), index('idempotency_created_idx').on(t.createdAt)]);

export const pages = pgTable('pages', {
  id: id(),
  slug: text('slug').notNull().unique(),
  title: text('title').notNull(),
  body: text('body').notNull(),
  status: text('status', { enum: ['draft', 'published'] }).notNull(),
  layout: jsonb('layout'),
  vibeHtml: text('vibe_html'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const services = pgTable('services', {
  id: id(),
  slug: text('slug').notNull().unique(),
  title: text('title').notNull(),
  body: text('body').notNull(),
  shortDescription: text('short_description'),
  priceString: text('price_string'),
  heroImage: text('hero_image'),
  features: jsonb('features').$type<string[]>().notNull().default([]),
  showInNav: boolean('show_in_nav').notNull().default(false),
  navOrder: int53('nav_order').notNull().default(0),
  status: text('status', { enum: ['draft', 'published'] }).notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [index('services_listing_idx').on(t.status, t.navOrder)]);

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: updatedAt(),
});

export const featureFlags = pgTable('feature_flags', {
  key: text('key').primaryKey(),
  enabled: boolean('enabled').notNull(),
  description: text('description').notNull(),
  updatedAt: updatedAt(),
});

export const announcements = pgTable('announcements', {
  id: id(),
  text: text('text').notNull(),
  linkUrl: text('link_url'),
  linkText: text('link_text'),
  startsAt: at('starts_at'),
  endsAt: at('ends_at'),
  active: boolean('active').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Everything oidc-provider stores (grants, codes, tokens, sessions, interactions, registered clients, keys),
 * one row per model + id, so every instance on the same PostgreSQL shares the authorization server's state.
 */
export const oauthRecords = pgTable('oauth_records', {
  model: text('model').notNull(),
  id: text('id').notNull(),
  payload: jsonb('payload').notNull(),
  grantId: text('grant_id'),
  userCode: text('user_code'),
  uid: text('uid'),
  expiresAt: at('expires_at'),
  consumedAt: at('consumed_at'),
}, (t) => [
  primaryKey({ columns: [t.model, t.id] }),
  index('oauth_records_grant_idx').on(t.grantId),
  index('oauth_records_uid_idx').on(t.uid),
]);

/** What shipping costs, per destination country (ISO 3166-1 alpha-2, or `default` for the rest) and service level. */
export const shippingRates = pgTable('shipping_rates', {
  /** The merchant's own id for the rate, the natural key an import upserts by. */
  id: text('id').primaryKey(),
  countryCode: text('country_code').notNull(),
  serviceLevel: text('service_level').notNull(),
  /** Minor units of the shop currency, VAT included. */
  price: int53('price').notNull(),
  title: text('title').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [index('shipping_rates_country_idx').on(t.countryCode, t.serviceLevel)]);

/**
 * Free-shipping promotions: an order ships free when its subtotal after discounts reaches minSubtotal, or when
 * it holds one of the eligible products (by SKU).
 */
export const promotions = pgTable('promotions', {
  id: text('id').primaryKey(),
  type: text('type', { enum: ['free_shipping'] }).notNull(),
  minSubtotal: int53('min_subtotal'),
  eligibleSkus: jsonb('eligible_skus').$type<string[]>().notNull().default([]),
  description: text('description').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Known buyers, by the merchant's own id; their saved addresses are in customer_addresses. */
export const customers = pgTable('customers', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [uniqueIndex('customers_email_idx').on(sql`lower(${t.email})`)]);

/**
 * A known buyer's addresses. `owner` names who may be offered the row: null for the merchant's own records
 * (imported), offered only through a platform the owner trusts to have verified the buyer's e-mail, since no
 * buyer can prove the e-mail is theirs here; `key:<api key id>` for an address a UCP platform's buyer shipped an
 * order to, offered to that key alone; `buyer:<buyer id>` for an address a linked buyer's order shipped to,
 * offered to that buyer's tokens alone; `platform:<profile URL>` for one a trusted platform's buyer shipped an
 * order to, offered to that platform alone (ucp/checkout/saved-addresses.ts).
 */
export const customerAddresses = pgTable('customer_addresses', {
  id: text('id').primaryKey(),
  customerId: text('customer_id').notNull().references(() => customers.id, { onDelete: 'cascade' }),
  owner: text('owner'),
  streetAddress: text('street_address').notNull(),
  city: text('city').notNull(),
  /** Region, state or province; optional outside countries that use one. */
  region: text('region'),
  postalCode: text('postal_code').notNull(),
  /** ISO 3166-1 alpha-2. */
  countryCode: text('country_code').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [
  index('customer_addresses_customer_idx').on(t.customerId),
  // One row per owner and address, however many orders ship there at once.
  uniqueIndex('customer_addresses_owned_idx')
    .on(t.owner, t.customerId, t.streetAddress, t.city, sql`coalesce(${t.region}, '')`, t.postalCode, t.countryCode)
    .where(sql`${t.owner} is not null`),
]);

/**
 * A UCP checkout session (docs/ucp.md#sessions-and-pricing): what the platform sent, kept as UCP shapes, over the Butik cart it owns.
 * Prices, titles and options are computed from the catalog on every read until the session ends; `frozen`
 * holds the answer it ended with (completed or canceled), so it never changes afterwards.
 */
export const ucpCheckoutSessions = pgTable('ucp_checkout_sessions', {
  id: id(),
  cartId: text('cart_id').notNull().references(() => carts.id),
  /** The platform's profile URL from UCP-Agent; idempotency keys and key-less reads are scoped by it. */
  platform: text('platform').notNull(),
  /** BUTIK_UCP_AUTH=key: the key that created the session; only it may use the session. */
  keyId: text('key_id'),
  status: text('status', { enum: ['incomplete', 'ready_for_complete', 'completed', 'canceled'] }).notNull(),
  currency: text('currency').notNull(),
  /** [{id, itemId, productId, quantity}]: UCP line item ids over the cart's product lines. */
  lineItems: jsonb('line_items').$type<Array<{ id: string; itemId: string; productId: string; quantity: number }>>().notNull(),
  buyer: jsonb('buyer').$type<Record<string, unknown>>(),
  fulfillment: jsonb('fulfillment').$type<Record<string, unknown>>(),
  discountCodes: jsonb('discount_codes').$type<string[]>(),
  /** Instruments as sent, credentials removed: a credential is never stored. */
  payment: jsonb('payment').$type<Record<string, unknown>>(),
  /** The buyer's context as the platform sent it (country, region, postal code, intent, language): a hint, never a price input. */
  context: jsonb('context').$type<Record<string, unknown>>(),
  /** Risk signals (buyer IP, user agent, attestations) and an AP2 checkout mandate, kept for fraud review of this session only. */
  signals: jsonb('signals').$type<Record<string, unknown>>(),
  frozen: jsonb('frozen').$type<Record<string, unknown>>(),
  /**
   * Created under the AP2 mandate extension: completing it needs a checkout mandate whatever version or profile
   * the completing call names, and the buyer's page never completes it (docs/ucp.md#ap2-mandates).
   */
  ap2: boolean('ap2').notNull().default(false),
  orderId: text('order_id'),
  expiresAt: at('expires_at').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * A UCP cart (docs/ucp.md#catalog-and-cart) over the Butik cart it is: who may use it, what the platform sent beside the
 * lines (buyer, context) and when it ends. The lines live in cart_items like any cart's; a canceled or expired
 * UCP cart is not found, and a checkout session made from it takes over the same Butik cart.
 */
export const ucpCarts = pgTable('ucp_carts', {
  cartId: text('cart_id').primaryKey().references(() => carts.id, { onDelete: 'cascade' }),
  /** The platform's profile URL from UCP-Agent. */
  platform: text('platform').notNull(),
  /** BUTIK_UCP_AUTH=key: the key that created the cart; only it may use the cart. */
  keyId: text('key_id'),
  buyer: jsonb('buyer').$type<Record<string, unknown>>(),
  context: jsonb('context').$type<Record<string, unknown>>(),
  canceledAt: at('canceled_at'),
  expiresAt: at('expires_at').notNull(),
  createdAt: createdAt(),
});

/** The UCP order document of an order placed through UCP: expectations, events and adjustments as UCP shows them. */
export const ucpOrders = pgTable('ucp_orders', {
  orderId: text('order_id').primaryKey().references(() => orders.id, { onDelete: 'cascade' }),
  checkoutId: text('checkout_id').notNull(),
  document: jsonb('document').$type<Record<string, unknown>>().notNull(),
  /** Where the platform takes order events (its profile's order capability config), when it named one. */
  webhookUrl: text('webhook_url'),
  /** The UCP version the platform negotiated when it placed the order: its order events are sent in that version's shape. */
  ucpVersion: text('ucp_version').notNull().default('2026-01-11'),
  /** BUTIK_UCP_AUTH=key: the key that placed the order; it, and keys with an orders scope, may use it. */
  keyId: text('key_id'),
  /** The linked buyer the order was placed for (a token from identity linking); that buyer's tokens may read it. */
  buyerId: text('buyer_id').references(() => buyers.id, { onDelete: 'set null' }),
  /** The processor that authorized the payment, and its reference: a refund goes back through them. */
  processor: text('processor'),
  paymentReference: text('payment_reference'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [index('ucp_orders_buyer_idx').on(t.buyerId)]);

/** The columns a retry queue (src/ucp/queue-worker.ts) works a table's items by. */
function retryColumns() {
  return {
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull().default(NOW_MS),
    /** Retries stop here and the item is `failed`. */
    giveUpAt: at('give_up_at').notNull(),
    lastError: text('last_error'),
  };
}

/**
 * Order events waiting for, or done with, delivery to a platform's webhook: written in the transaction that
 * changed the order, sent after it commits, retried with backoff, claimed with SKIP LOCKED across instances.
 */
export const ucpWebhookOutbox = pgTable('ucp_webhook_outbox', {
  id: id(),
  orderId: text('order_id').notNull().references(() => orders.id, { onDelete: 'cascade' }),
  eventType: text('event_type').notNull(),
  url: text('url').notNull(),
  /** The exact JSON text posted; its signature is made when it is sent, with the key current then. */
  body: text('body').notNull(),
  status: text('status', { enum: ['pending', 'delivered', 'failed'] }).notNull().default('pending'),
  // giveUpAt: three days after the event, or after an operator's retry.
  ...retryColumns(),
  createdAt: createdAt(),
  deliveredAt: at('delivered_at'),
}, (t) => [index('ucp_webhook_outbox_due_idx').on(t.status, t.nextAttemptAt)]);

/**
 * Payment work a UCP order's status change asks of its processor (a refund), written in the transaction of the
 * change and carried out after it commits, retried with backoff like the webhooks, one instance per action.
 */
export const ucpPaymentActions = pgTable('ucp_payment_actions', {
  id: id(),
  orderId: text('order_id').notNull().references(() => orders.id, { onDelete: 'cascade' }),
  action: text('action', { enum: ['refund'] }).notNull(),
  /** Minor units of the order's currency. */
  amount: int53('amount').notNull(),
  status: text('status', { enum: ['pending', 'done', 'failed'] }).notNull().default('pending'),
  ...retryColumns(),
  createdAt: createdAt(),
  doneAt: at('done_at'),
}, (t) => [index('ucp_payment_actions_due_idx').on(t.status, t.nextAttemptAt)]);

/**
 * The ES256 keys the shop signs with, published in /.well-known/ucp. Kept in the database so every instance
 * signs with the same key; a retired key stays published until no signature made with it can still be checked.
 */
export const ucpSigningKeys = pgTable('ucp_signing_keys', {
  kid: text('kid').primaryKey(),
  privateJwk: jsonb('private_jwk').$type<Record<string, string>>().notNull(),
  publicJwk: jsonb('public_jwk').$type<Record<string, string>>().notNull(),
  createdAt: createdAt(),
  retiredAt: at('retired_at'),
});

/** The shop's one policy document (id 1): the rules that hold agents' calls for a person's approval. */
export const policyDocuments = pgTable('policy_documents', {
  id: integer('id').primaryKey(),
  document: jsonb('document').notNull(),
  updatedAt: updatedAt(),
});

export const APPROVAL_STATUSES = ['pending', 'approved', 'denied', 'expired', 'failed'] as const;

/** A call a policy held: the exact arguments, who made it, and what a person decided. */
export const approvals = pgTable('approvals', {
  id: id(),
  /** callerId of the agent (key:<id>), what approvals.get and approvals.list answer for. */
  caller: text('caller').notNull(),
  agentName: text('agent_name').notNull(),
  /** The agent as it called: its key id, name and scopes, so an approval runs as it. */
  actor: jsonb('actor').notNull(),
  channel: text('channel', { enum: ['rest', 'mcp', 'cli', 'admin'] }).notNull(),
  tool: text('tool').notNull(),
  input: jsonb('input').notNull(),
  idempotencyKey: text('idempotency_key'),
  reason: text('reason').notNull(),
  /** Hash of the target's state the call touches and the rule looked at, when it was held. */
  fingerprint: text('fingerprint').notNull(),
  /** What the target looked like when the call was held, for the before/after preview. */
  preview: jsonb('preview'),
  status: text('status', { enum: APPROVAL_STATUSES }).notNull(),
  createdAt: createdAt(),
  expiresAt: at('expires_at').notNull(),
  decidedAt: at('decided_at'),
  decidedBy: text('decided_by'),
  note: text('note'),
  result: jsonb('result'),
  problem: jsonb('problem'),
}, (t) => [
  uniqueIndex('approvals_idempotency_idx').on(t.caller, t.idempotencyKey),
  index('approvals_caller_idx').on(t.caller, ...newestFirst(t)),
  index('approvals_status_idx').on(t.status, t.createdAt),
]);
