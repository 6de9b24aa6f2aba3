import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { placeholderAs, preparedStatement } from '../db/prepared.ts';
import { discounts } from '../db/schema.ts';
import { ToolError } from '../errors/tool-error.ts';
import { toIso } from '../schema/common.ts';
import { normalizeCode } from '../schema/discount.ts';
import type { DiscountReason, DiscountRecord } from '../schema/discount.ts';
import type { Queryable } from '../db/client.ts';

export type DiscountRow = typeof discounts.$inferSelect;

/** Looks a code up case-insensitively (codes are stored uppercase). */
export async function findDiscount(db: Queryable, code: string, options: { lock?: boolean } = {}): Promise<DiscountRow | undefined> {
  const [row] = await (options.lock ? discountForUpdate : discountByCode)(db).execute({ code: normalizeCode(code) });
  return row;
}

const discountByCode = preparedStatement((db) => db.select().from(discounts)
  .where(eq(discounts.code, sql.placeholder('code'))).prepare('commerce_discount_by_code'));
const discountForUpdate = preparedStatement((db) => db.select().from(discounts)
  .where(eq(discounts.code, sql.placeholder('code'))).for('update').prepare('commerce_discount_for_update'));

/** An unknown code is 404 everywhere except in carts (docs/behaviour.md#other-decisions). */
export async function requireDiscount(db: Queryable, code: string, options: { lock?: boolean } = {}): Promise<DiscountRow> {
  const row = await findDiscount(db, code, options);
  if (!row) throw new ToolError('not_found', `No discount code "${normalizeCode(code)}"; discounts.list shows the existing ones.`);
  return row;
}

/** Why the code cannot be used at `now`, or null when it can: usable means active, before validUntil, below usageLimit. */
export function unusableReason(row: DiscountRow | undefined, now: Date): DiscountReason | null {
  if (!row) return 'unknown_code';
  if (!row.active) return 'inactive';
  if (row.validUntil && row.validUntil.getTime() <= now.getTime()) return 'expired';
  if (row.usageLimit !== null && row.usageCount >= row.usageLimit) return 'usage_limit_reached';
  return null;
}

export function notApplicable(code: string, reason: DiscountReason, row?: DiscountRow): ToolError {
  const name = normalizeCode(code);
  const detail = ((): string => {
    switch (reason) {
      case 'unknown_code':
        return `Discount code "${name}" does not exist.`;
      case 'inactive':
        return `Discount code "${name}" is switched off.`;
      case 'expired':
        return `Discount code "${name}" expired at ${toIso(row?.validUntil ?? null) ?? 'an earlier time'}.`;
      case 'usage_limit_reached':
        return `Discount code "${name}" has reached its usage limit of ${row?.usageLimit ?? 0}.`;
    }
  })();
  return new ToolError('discount_not_applicable', detail, { reason });
}

/** A code that can be used right now, or 422 discount_not_applicable with the reason. */
export async function usableDiscount(db: Queryable, code: string, now: Date): Promise<DiscountRow> {
  const row = await findDiscount(db, code);
  const reason = unusableReason(row, now);
  if (reason || !row) throw notApplicable(code, reason ?? 'unknown_code', row);
  return row;
}

/**
 * Takes one use of the code in a single guarded UPDATE, so concurrent checkouts can never exceed
 * usageLimit (docs/behaviour.md#checkout). No row updated → 422 with the reason read back afterwards.
 */
export async function consumeDiscount(db: Queryable, code: string, now: Date): Promise<DiscountRow> {
  const [row] = await takeDiscountUse(db).execute({ code: normalizeCode(code), now });
  if (row) return row;
  const current = await findDiscount(db, code);
  // The row changed between the UPDATE and this read only if another order gave a use back; still report it full.
  throw notApplicable(code, unusableReason(current, now) ?? 'usage_limit_reached', current);
}

const takeDiscountUse = preparedStatement((db) => db.update(discounts)
  .set({ usageCount: sql`${discounts.usageCount} + 1`, updatedAt: placeholderAs(discounts.updatedAt, 'now') })
  .where(and(
    eq(discounts.code, sql.placeholder('code')),
    eq(discounts.active, true),
    or(isNull(discounts.validUntil), gt(discounts.validUntil, placeholderAs(discounts.validUntil, 'now'))),
    or(isNull(discounts.usageLimit), lt(discounts.usageCount, discounts.usageLimit)),
  ))
  .returning()
  .prepare('commerce_take_discount_use'));

/** A cancelled order gives its discount use back, never below zero. */
export async function releaseDiscount(db: Queryable, code: string, now: Date): Promise<void> {
  await db.update(discounts)
    .set({ usageCount: sql`${discounts.usageCount} - 1`, updatedAt: now })
    .where(and(eq(discounts.code, normalizeCode(code)), gt(discounts.usageCount, 0)));
}

export function toDiscountRecord(row: DiscountRow): z.input<typeof DiscountRecord> {
  return {
    id: row.id,
    code: row.code,
    type: row.type,
    value: row.value,
    validUntil: toIso(row.validUntil),
    usageLimit: row.usageLimit,
    usageCount: row.usageCount,
    active: row.active,
    remainingUses: row.usageLimit === null ? null : Math.max(0, row.usageLimit - row.usageCount),
    createdAt: toIso(row.createdAt),
  };
}
