import { desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { discounts } from '../db/schema.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { ToolError } from '../errors/tool-error.ts';
import { Id, PositiveInt, Timestamp, money } from '../schema/common.ts';
import { DiscountCodeRef, DiscountRecord, normalizeCode } from '../schema/discount.ts';
import { belowOneKrone } from './money-warnings.ts';
import { currentVersion } from '../shop/record-version.ts';
import { defineTool, readOnly, write } from './define-tool.ts';
import { requireVersion } from './version-check.ts';
import type { AnyTool } from './define-tool.ts';
import { requireDiscount, toDiscountRecord } from '../commerce/discounts.ts';

const CODE_RULES = 'Codes are case-insensitive and stored uppercase.';

export const listDiscounts = defineTool({
  name: 'discounts.list',
  description: `List discount codes, newest first, with usage statistics. ${CODE_RULES} `
    + 'percent values are 1..100 %, fixed values are øre (1/100 DKK).',
  scope: 'discounts:read',
  annotations: readOnly('List discount codes'),
  input: z.strictObject({
    onlyActive: z.boolean().optional().meta({ description: 'true: only codes that are switched on.' }),
    limit: z.int().min(1).max(100).default(50).meta({ description: 'Page size, 1..100.' }),
  }).meta({ examples: [{ onlyActive: true, limit: 20 }] }),
  output: z.array(DiscountRecord),
  async handler({ onlyActive, limit }, { db }) {
    const rows = await db.select().from(discounts)
      .where(onlyActive ? eq(discounts.active, true) : undefined)
      .orderBy(desc(discounts.createdAt), desc(discounts.id))
      .limit(limit);
    return rows.map(toDiscountRecord);
  },
});

export const getDiscount = defineTool({
  name: 'discounts.get',
  description: 'Get one discount code with its usage statistics. Unknown code → 404 not_found.',
  scope: 'discounts:read',
  annotations: readOnly('Get discount code'),
  input: z.strictObject({ code: DiscountCodeRef }).meta({ examples: [{ code: 'SOMMER25' }] }),
  output: DiscountRecord,
  async handler({ code }, { db }) {
    return toDiscountRecord(await requireDiscount(db, code));
  },
  version: (discount, { db }) => currentVersion(db, discounts, discount.id),
});

const CreateFields = {
  code: z.string().trim().min(3).max(64)
    .meta({ description: 'At least 3 characters after trimming; stored uppercase; unique regardless of case.', examples: ['SOMMER25'] }),
  validUntil: Timestamp.optional().meta({ description: 'The code stops working at this instant; omitted: no end.' }),
  usageLimit: PositiveInt.optional().meta({ description: 'How many orders may use the code; omitted: unlimited.' }),
};

export const createDiscount = defineTool({
  name: 'discounts.create',
  description: `Create a discount code; it starts active. ${CODE_RULES} type percent takes value 1..100 (% off the subtotal, `
    + 'rounded down to whole øre); type fixed takes value in øre (1/100 DKK) off the subtotal, at most the subtotal. '
    + 'An existing code in any case → 409 already_exists.',
  scope: 'discounts:write',
  annotations: write('Create discount code', { idempotent: false }),
  input: z.discriminatedUnion('type', [
    z.strictObject({
      ...CreateFields,
      type: z.literal('percent').meta({ description: 'percent: value is the percentage off the subtotal.' }),
      value: z.int().min(1).max(100).meta({ description: 'Percent off, 1..100.' }),
    }),
    z.strictObject({
      ...CreateFields,
      type: z.literal('fixed').meta({ description: 'fixed: value is an amount in øre off the subtotal.' }),
      value: money(PositiveInt, 'the amount off. Under 100 (1 kr) is accepted with a warning.', 5000),
    }),
  ])
    .meta({ examples: [{ code: 'SOMMER25', type: 'percent', value: 25, validUntil: '2026-08-31T21:59:59Z', usageLimit: 500 }, { code: 'VELKOMMEN50', type: 'fixed', value: 5000 }] }),
  output: z.strictObject({ id: Id, code: z.string() }),
  warnings: (input) => (input.type === 'fixed' ? belowOneKrone('value', input.value) : []),
  async handler(input, ctx) {
    const code = normalizeCode(input.code);
    const taken = () => new ToolError('already_exists', `Discount code "${code}" already exists.`);
    const [existing] = await ctx.db.select({ id: discounts.id }).from(discounts).where(eq(discounts.code, code));
    if (existing) throw taken();
    try {
      const [row] = await ctx.db.insert(discounts).values({
        code,
        type: input.type,
        value: input.value,
        validUntil: input.validUntil ? new Date(input.validUntil) : null,
        usageLimit: input.usageLimit ?? null,
      }).returning();
      if (!row) throw new Error('discount insert returned no row');
      await ctx.audit({ targetType: 'discount', targetId: row.id, before: null, after: row });
      return { id: row.id, code: row.code };
    } catch (error) {
      if (isUniqueViolation(error)) throw taken();
      throw error;
    }
  },
});

export const toggleDiscount = defineTool({
  name: 'discounts.toggle',
  description: 'Switch a discount code on or off. With active given, the code gets that state; without it, the current '
    + 'state flips. Unknown code → 404 not_found.',
  scope: 'discounts:write',
  annotations: write('Switch discount code on or off', { idempotent: false }),
  input: z.strictObject({
    code: DiscountCodeRef,
    active: z.boolean().optional().meta({ description: 'The wanted state; omitted: flip the current one.' }),
  }).meta({ examples: [{ code: 'SOMMER25', active: false }] }),
  output: z.strictObject({ code: z.string(), active: z.boolean() }),
  async handler({ code, active }, ctx) {
    const before = await requireDiscount(ctx.db, code, { lock: true });
    await requireVersion(ctx, {
      table: discounts, id: before.id, readTool: 'discounts.get', current: async () => toDiscountRecord(await requireDiscount(ctx.db, before.code)),
    });
    const next = active ?? !before.active;
    if (next === before.active) return { code: before.code, active: next };
    const [after] = await ctx.db.update(discounts).set({ active: next, updatedAt: ctx.clock() })
      .where(eq(discounts.id, before.id)).returning();
    await ctx.audit({ targetType: 'discount', targetId: before.id, before, after });
    return { code: before.code, active: next };
  },
  version: async (result, { db }) => currentVersion(db, discounts, (await requireDiscount(db, result.code)).id),
});

export const discountTools: AnyTool[] = [listDiscounts, getDiscount, createDiscount, toggleDiscount];
