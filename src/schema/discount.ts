import { z } from 'zod';
import { Id, NonNegativeInt, PositiveInt, Timestamp } from './common.ts';

/** SPEC §2.3: codes are case-insensitive and stored uppercase. */
export function normalizeCode(code: string): string {
  return code.trim().toUpperCase();
}

export const DiscountCodeRef = z.string().min(1).max(64)
  .meta({ description: 'A discount code, case-insensitive.', examples: ['SOMMER25'] });

/** Why a code cannot be used now (CONTRACT §11); the `reason` member of 422 discount_not_applicable. */
export const DiscountReason = z.enum(['unknown_code', 'inactive', 'expired', 'usage_limit_reached']);
export type DiscountReason = z.infer<typeof DiscountReason>;

/** SPEC §2.3 record plus createdAt and remainingUses (additive; SPEC §9 item 2). */
export const DiscountRecord = z.strictObject({
  id: Id,
  code: z.string(),
  type: z.enum(['percent', 'fixed']),
  value: PositiveInt.meta({ description: 'percent: 1..100 (percent off); fixed: øre (1/100 DKK) off, e.g. 5000 = 50,00 kr.' }),
  validUntil: Timestamp.nullable().meta({ description: 'Usable until this instant (exclusive); null: no end.' }),
  usageLimit: PositiveInt.nullable().meta({ description: 'Orders that may use the code; null: unlimited.' }),
  usageCount: NonNegativeInt.meta({ description: 'Orders that have used the code (cancelled orders give the use back).' }),
  active: z.boolean(),
  remainingUses: NonNegativeInt.nullable().meta({ description: 'usageLimit − usageCount, or null when unlimited.' }),
  createdAt: Timestamp,
});
