import { z } from 'zod';
import { ToolError } from '../errors/tool-error.ts';
import { Confirm } from '../schema/common.ts';
import { PromotionFields, PromotionRecord, ShippingId, ShippingRateFields, ShippingRateRecord } from '../schema/shipping.ts';
import { allShipping, removePromotion, removeRate, writePromotion, writeRate } from '../shop/shipping.ts';
import type { PromotionRow, ShippingRateRow } from '../shop/shipping.ts';
import { defineTool, readOnly, write } from './define-tool.ts';
import type { AnyTool } from './define-tool.ts';

/**
 * The owner's shipping: rates per destination country and service level, and free-shipping promotions, the terms
 * every checkout prices shipping by (docs/behaviour.md#shipping). The scopes are the settings' ones: shipping is
 * part of the shop's terms beside the flat shipping settings.
 */

const RULE = 'Every checkout ships at the destination country\'s rate per service level, else the "default" one; a shop '
  + 'without rates at its flat settings. A promotion makes standard shipping free.';
const REVERT = 'Audited (targetType "shipping_rate" or "promotion"); audit.revert undoes it.';

function rateRecord(row: ShippingRateRow): ShippingRateRecord {
  return {
    id: row.id, title: row.title, serviceLevel: row.serviceLevel, countryCode: row.countryCode, price: row.price,
    createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString(),
  };
}

function promotionRecord(row: PromotionRow): PromotionRecord {
  return {
    id: row.id, type: row.type, description: row.description, minSubtotal: row.minSubtotal, eligibleSkus: row.eligibleSkus,
    createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString(),
  };
}

export const listShipping = defineTool({
  name: 'shipping.list',
  description: `List the shipping rates (by country, "default" last, then service level) and free-shipping promotions. ${RULE} `
    + 'Amounts are øre incl. VAT.',
  scope: 'settings:read',
  annotations: readOnly('List shipping rates and promotions'),
  input: z.strictObject({}).meta({ examples: [{}] }),
  output: z.strictObject({ rates: z.array(ShippingRateRecord), promotions: z.array(PromotionRecord) }),
  async handler(_input, { db }) {
    const { rates, promotions } = await allShipping(db);
    return { rates: rates.map(rateRecord), promotions: promotions.map(promotionRecord) };
  },
});

export const setShippingRate = defineTool({
  name: 'shipping.set_rate',
  description: `Create a shipping rate, or replace the one with this id. price is øre incl. VAT (4900 = 49,00 kr). ${REVERT}`,
  scope: 'settings:write',
  annotations: write('Set shipping rate', { idempotent: true }),
  input: z.strictObject(ShippingRateFields)
    .meta({ examples: [{ id: 'dk-standard', title: 'PostNord', serviceLevel: 'standard', countryCode: 'DK', price: 4900 }] }),
  output: ShippingRateRecord,
  async handler(input, ctx) {
    const { before, after, changed } = await writeRate(ctx.db, input, ctx.clock());
    // An unchanged rate is not rewritten, so a repeated call leaves no audit noise.
    if (changed) await ctx.audit({ targetType: 'shipping_rate', targetId: after.id, before, after });
    return rateRecord(after);
  },
});

export const deleteShippingRate = defineTool({
  name: 'shipping.delete_rate',
  description: `Delete a shipping rate. Unknown id → 404 not_found. Requires confirm: true. ${REVERT}`,
  scope: 'settings:write',
  annotations: write('Delete shipping rate', { idempotent: true, destructive: true }),
  input: z.strictObject({ id: ShippingId.meta({ description: 'The rate to delete.' }), confirm: Confirm })
    .meta({ examples: [{ id: 'dk-standard', confirm: true }] }),
  output: z.strictObject({ ok: z.literal(true), id: z.string() }),
  async handler({ id }, ctx) {
    const before = await removeRate(ctx.db, id);
    if (!before) throw new ToolError('not_found', `No shipping rate with id "${id}"; shipping.list shows the rates.`);
    await ctx.audit({ targetType: 'shipping_rate', targetId: id, before, after: null });
    return { ok: true as const, id };
  },
});

export const setPromotion = defineTool({
  name: 'shipping.set_promotion',
  description: 'Create a free-shipping promotion, or replace the one with this id: an order ships free (standard level) '
    + 'when its subtotal after discounts reaches minSubtotal (øre incl. VAT), or when it holds one of eligibleSkus. '
    + `Give minSubtotal, eligibleSkus or both. ${REVERT}`,
  scope: 'settings:write',
  annotations: write('Set free-shipping promotion', { idempotent: true }),
  input: z.strictObject(PromotionFields)
    .refine((promotion) => promotion.minSubtotal !== null || promotion.eligibleSkus.length > 0, {
      message: 'give minSubtotal, eligibleSkus or both', path: ['minSubtotal'],
    })
    .meta({ examples: [{ id: 'free-over-500', description: 'Fri fragt over 500 kr.', minSubtotal: 50000 }] }),
  output: PromotionRecord,
  async handler(input, ctx) {
    const { before, after, changed } = await writePromotion(ctx.db, input, ctx.clock());
    if (changed) await ctx.audit({ targetType: 'promotion', targetId: after.id, before, after });
    return promotionRecord(after);
  },
});

export const deletePromotion = defineTool({
  name: 'shipping.delete_promotion',
  description: `Delete a free-shipping promotion. Unknown id → 404 not_found. Requires confirm: true. ${REVERT}`,
  scope: 'settings:write',
  annotations: write('Delete free-shipping promotion', { idempotent: true, destructive: true }),
  input: z.strictObject({ id: ShippingId.meta({ description: 'The promotion to delete.' }), confirm: Confirm })
    .meta({ examples: [{ id: 'free-over-500', confirm: true }] }),
  output: z.strictObject({ ok: z.literal(true), id: z.string() }),
  async handler({ id }, ctx) {
    const before = await removePromotion(ctx.db, id);
    if (!before) throw new ToolError('not_found', `No free-shipping promotion with id "${id}"; shipping.list shows the promotions.`);
    await ctx.audit({ targetType: 'promotion', targetId: id, before, after: null });
    return { ok: true as const, id };
  },
});

export const shippingTools: AnyTool[] = [listShipping, setShippingRate, deleteShippingRate, setPromotion, deletePromotion];
