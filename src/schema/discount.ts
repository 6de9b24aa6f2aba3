import { z } from 'zod';
import { Id, NonNegativeInt, PositiveInt, Timestamp } from './common.ts';

/** Codes are case-insensitive and stored uppercase. */
export function normalizeCode(code: string): string {
  return code.trim().toUpperCase();
}

export const DiscountCodeRef = z.string().min(1).max(64)
  .meta({ description: 'A discount code, case-insensitive.', examples: ['SOMMER25'] });

/** Why a code cannot be used now (docs/behaviour.md#problem-members-an-agent-can-act-on); the `reason` member of 422 discount_not_applicable. */
export const DiscountReason = z.enum(['unknown_code', 'inactive', 'expired', 'usage_limit_reached']);
export type DiscountReason = z.infer<typeof DiscountReason>;

/** The record of docs/behaviour.md#discount-codes plus createdAt and remainingUses (additive, so compatible). */
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
