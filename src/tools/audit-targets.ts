import { isDeepStrictEqual } from 'node:util';
import { and, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import {
  announcements, categories, discounts, featureFlags, pages, products, promotions, services, settings, shippingRates,
} from '../db/schema.ts';
import type { ToolContext } from '../context.ts';

type Db = ToolContext['db'];

/** A table whose audit entries audit.revert can undo (docs/behaviour.md#audit-and-revert). */
export type RevertTarget = {
  table: PgTable;
  /** The single-column primary key that audit entries name as targetId. */
  key: PgColumn;
  /** What detail messages call a row: `product "aviator-classic"`. */
  label: string;
  /** The snapshot field that names a row for people (slug, code, key), when there is one. */
  nameField?: string;
  /** The tool an agent should use instead, when a revert is refused. */
  editWith: string;
  /** What to do instead when the row an entry created is now referenced and cannot be removed. */
  whenInUse?: string;
  /** A rule the restored values must meet besides the table's own constraints; returns why not. */
  guard?: (db: Db, values: Record<string, unknown>) => Promise<string | undefined>;
};

/**
 * Every targetType that can be reverted. Orders are absent on purpose: an order status carries
 * side effects (stock, discount uses, payments) that a snapshot cannot undo.
 */
const TARGETS: ReadonlyMap<string, RevertTarget> = new Map([
  ['product', target(products, {
    label: 'product', nameField: 'slug', editWith: 'products.update', guard: categoryIsVisible,
    whenInUse: 'Take it out of the catalog with products.delete instead.',
  })],
  ['category', target(categories, {
    label: 'category', nameField: 'slug', editWith: 'categories.upsert',
    whenInUse: 'Move its products to another category with products.update, then delete it with categories.delete.',
  })],
  ['discount', target(discounts, { label: 'discount', nameField: 'code', editWith: 'discounts.toggle' })],
  ['page', target(pages, { label: 'page', nameField: 'slug', editWith: 'pages.upsert' })],
  ['service', target(services, { label: 'service', nameField: 'slug', editWith: 'services.update' })],
  ['settings', target(settings, { label: 'setting', nameField: 'key', editWith: 'settings.update' })],
  ['shipping_rate', target(shippingRates, { label: 'shipping rate', nameField: 'id', editWith: 'shipping.set_rate' })],
  ['promotion', target(promotions, { label: 'free-shipping promotion', nameField: 'id', editWith: 'shipping.set_promotion' })],
  ['feature', target(featureFlags, { label: 'feature flag', nameField: 'key', editWith: 'features.set' })],
  ['announcement', target(announcements, { label: 'announcement', editWith: 'marketing.set_announcement' })],
]);

function target(table: PgTable, options: Omit<RevertTarget, 'table' | 'key'>): RevertTarget {
  const key = Object.values(getTableColumns(table)).find((column) => column.primary);
  if (!key) throw new Error('a revert target needs a single-column primary key');
  return { table, key, ...options };
}

/**
 * A product brought back into the catalog needs a category that is still there: products.get and the
 * search show a product together with its category.
 */
async function categoryIsVisible(db: Db, values: Record<string, unknown>): Promise<string | undefined> {
  if (values.deletedAt !== null || typeof values.categoryId !== 'string') return undefined;
  const [category] = await db.select({ id: categories.id }).from(categories)
    .where(and(eq(categories.id, values.categoryId), isNull(categories.deletedAt))).for('share');
  if (category) return undefined;
  return `its category ${values.categoryId} has been deleted since. Bring the category back first (revert its `
    + `categories.delete entry: audit.list with targetId "${values.categoryId}"), or re-create it with categories.upsert`;
}

export function revertTargetFor(targetType: string): RevertTarget | undefined {
  return TARGETS.get(targetType);
}

export type Snapshot = Record<string, unknown>;

export function isSnapshot(value: unknown): value is Snapshot {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Columns a snapshot restores: every stored one. Generated columns (search vectors) follow by themselves. */
function storedColumns(table: PgTable): Array<[string, PgColumn]> {
  return Object.entries(getTableColumns(table)).filter(([, column]) => !column.generated && !column.generatedIdentity);
}

/** A row as the audit log stores it: JSON, so timestamps are ISO strings. */
export function toSnapshot(row: object): Snapshot {
  const json: unknown = JSON.parse(JSON.stringify(row));
  if (!isSnapshot(json)) throw new Error('a row must serialize to a JSON object');
  return json;
}

/**
 * The stored columns in which the row differs from the snapshot (jsonb key order does not count). A column
 * the snapshot lacks was added after it was taken and does not count either.
 */
export function differingFields(table: PgTable, row: object, snapshot: Snapshot): string[] {
  const current = toSnapshot(row);
  return storedColumns(table)
    .map(([field]) => field)
    .filter((field) => Object.hasOwn(snapshot, field) && !isDeepStrictEqual(current[field], snapshot[field]));
}

/**
 * Column values from a snapshot, converted by Drizzle's column metadata rather than a list of names:
 * timestamp columns read back from ISO strings. A column the snapshot lacks (added later) is left out.
 */
export function fromSnapshot(table: PgTable, snapshot: Snapshot): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [field, column] of storedColumns(table)) {
    if (!Object.hasOwn(snapshot, field)) continue;
    values[field] = toColumnValue(column, snapshot[field]);
  }
  return values;
}

function toColumnValue(column: PgColumn, value: unknown): unknown {
  if (column.dataType === 'date' && typeof value === 'string') return new Date(value);
  // A JS null would be SQL NULL; in a not-null jsonb column (a cleared setting) it was the JSON value null.
  if (column.dataType === 'json' && value === null && column.notNull) return sql`'null'::jsonb`;
  return value;
}
