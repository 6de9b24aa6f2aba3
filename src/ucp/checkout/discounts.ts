import { unusableReason } from '../../commerce/discounts.ts';
import type { DiscountRow } from '../../commerce/discounts.ts';
import { stackedDiscounts } from '../../domain/pricing.ts';
import { normalizeCode } from '../../schema/discount.ts';

export type AppliedDiscount = { code: string; title: string; amount: number; priority: number };
export type Warning = { type: 'warning'; code: string; path: string; content: string };

/** UCP's words for why a code does not apply (discount.md, "Rejected Codes"). */
function rejectionCode(reason: ReturnType<typeof unusableReason>): string {
  return reason === 'expired' ? 'discount_code_expired' : 'discount_code_invalid';
}

function rejection(reason: NonNullable<ReturnType<typeof unusableReason>>, code: string): string {
  switch (reason) {
    case 'unknown_code':
      return `Code '${code}' is not a valid discount code`;
    case 'inactive':
      return `Code '${code}' is not active`;
    case 'expired':
      return `Code '${code}' has expired`;
    case 'usage_limit_reached':
      return `Code '${code}' has reached its usage limit`;
  }
}

/**
 * The codes a session sent, judged in the order sent. An order takes one code, like a cart: the first usable one
 * applies and every further usable one is refused as UCP refuses a code, with a warning
 * (discount_code_combination_disallowed), not an error. A shop that allows stacking takes them all, each on the
 * amount the ones before left. A code that cannot be used, or is sent twice, is a warning and takes nothing.
 */
export function applyDiscounts(
  codes: readonly string[], merchandise: number, rows: ReadonlyMap<string, DiscountRow>, policy: { now: Date; stack: boolean },
) {
  const accepted: DiscountRow[] = [];
  const warnings: Warning[] = [];
  const seen = new Set<string>();
  codes.forEach((sent, index) => {
    const code = normalizeCode(sent);
    const path = `$.discounts.codes[${index}]`;
    if (seen.has(code)) {
      warnings.push({ type: 'warning', code: 'discount_code_already_applied', path, content: `Code '${code}' is already applied` });
      return;
    }
    seen.add(code);
    const row = rows.get(code);
    const reason = unusableReason(row, policy.now);
    if (reason || !row) {
      warnings.push({ type: 'warning', code: rejectionCode(reason), path, content: rejection(reason ?? 'unknown_code', code) });
      return;
    }
    if (accepted.length > 0 && !policy.stack) {
      warnings.push({
        type: 'warning', code: 'discount_code_combination_disallowed', path,
        content: `Code '${code}' cannot be combined with '${accepted[0]?.code ?? ''}'; this shop takes one discount code per order`,
      });
      return;
    }
    accepted.push(row);
  });
  const { amounts, total } = stackedDiscounts(merchandise, accepted);
  const applied: AppliedDiscount[] = accepted.map((row, index) => ({
    code: row.code, title: row.title ?? row.code, amount: amounts[index] ?? 0, priority: index + 1,
  }));
  return { applied, warnings, discount: total };
}
