import { createHash } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { configure } from 'safe-stable-stringify';
import type { Queryable } from '../db/client.ts';
import { discounts, orders, products } from '../db/schema.ts';
import { normalizeCode } from '../schema/discount.ts';

const canonical = configure({ deterministic: true, strict: false });

type Row = Record<string, unknown>;
type Input = Record<string, unknown>;

/**
 * The record a held call would change, read as it is now, and the fields that matter to the call: those it
 * writes and those a rule looked at. Approving compares their hash with the one taken at the hold, inside the
 * approval's transaction, so a price changed by someone else meanwhile fails the approval with a conflict.
 * A tool whose target is not named here has no record state to compare beyond its arguments.
 */
export type Target = { row: Row | null; fields: readonly string[] | 'all' };

export async function readTarget(db: Queryable, tool: string, input: Input, lock = false): Promise<Target | undefined> {
  const family = tool.split('.')[0];
  if (family === 'products' && typeof input.slug === 'string') {
    const query = db.select().from(products).where(and(eq(products.slug, input.slug), isNull(products.deletedAt)));
    const [row] = lock ? await query.for('update') : await query;
    const patch = (tool === 'products.update' && typeof input.patch === 'object' && input.patch !== null) ? Object.keys(input.patch) : undefined;
    return { row: row ?? null, fields: patch ? [...new Set([...patch, 'priceDkk', 'slug'])] : 'all' };
  }
  if (family === 'orders' && typeof input.orderId === 'string') {
    const query = db.select().from(orders).where(eq(orders.id, input.orderId));
    const [row] = lock ? await query.for('update') : await query;
    const written = Object.keys(input).filter((key) => key !== 'orderId');
    return { row: row ?? null, fields: [...new Set([...written, 'status', 'totalDkk'])] };
  }
  if (family === 'discounts' && typeof input.code === 'string') {
    const query = db.select().from(discounts).where(eq(discounts.code, normalizeCode(input.code)));
    const [row] = lock ? await query.for('update') : await query;
    return { row: row ?? null, fields: 'all' };
  }
  return undefined;
}

/** The part of the target a fingerprint covers (also the console's "before"). */
export function relevantState(target: Target | undefined): Row | null {
  if (!target?.row) return null;
  if (target.fields === 'all') return target.row;
  const row = target.row;
  return Object.fromEntries(target.fields.filter((field) => field in row).map((field) => [field, row[field]]));
}

export function fingerprintOf(target: Target | undefined): string {
  return createHash('sha256').update(canonical(relevantState(target)) ?? 'null').digest('hex');
}
