import type { Tx } from '../db/client.ts';
import { insertOrder } from '../commerce/place-order.ts';
import { discounts } from '../db/schema.ts';
import { priceLines } from '../domain/pricing.ts';

/**
 * Discount codes and one placed order for the demo shop, so that every read tool answers something on a
 * fresh start and the examples in the tool schemas (SOMMER25) name codes that exist.
 */
const DEMO_DISCOUNTS = [
  { code: 'SOMMER25', type: 'percent', value: 25, usageLimit: 500, active: true },
  { code: 'VELKOMMEN100', type: 'fixed', value: 10_000, usageLimit: null, active: true },
  { code: 'VINTER15', type: 'percent', value: 15, usageLimit: null, active: false },
] as const;

/** The settings' defaults (docs/behaviour.md#pricing-a-cart); the demo store does not change them. */
const SHIPPING = { shippingDkk: 4900, freeShippingThresholdDkk: 50_000 };

type Ordered = { id: string; name: string; priceDkk: number };

export async function seedDemoCommerce(tx: Tx, items: readonly [Ordered, ...Ordered[]], placedAt: Date): Promise<void> {
  await tx.insert(discounts).values(DEMO_DISCOUNTS.map((discount) => ({
    ...discount,
    usageCount: discount.code === 'SOMMER25' ? 1 : 0,
    createdAt: placedAt,
    updatedAt: placedAt,
  })));
  const lines = items.map((item) => ({ unitPriceDkk: item.priceDkk, quantity: 1, itemIds: [] }));
  await insertOrder(tx, {
    columns: {
      email: 'karen@example.dk',
      status: 'paid',
      shippingName: 'Karen Blixen',
      shippingAddress: 'Rungstedvej 111',
      shippingZip: '2960',
      shippingCity: 'Rungsted Kyst',
      paymentMethod: 'card',
      paidAt: placedAt,
      channel: 'api',
      createdAt: placedAt,
      updatedAt: placedAt,
    },
    lines: items.map((item) => ({ productId: item.id, productName: item.name, unitPriceDkk: item.priceDkk, quantity: 1 })),
    totals: priceLines(lines, { type: 'percent', value: 25 }, { terms: SHIPPING, rates: [], promotions: [] }).totals,
    discountCodes: ['SOMMER25'],
  });
}
