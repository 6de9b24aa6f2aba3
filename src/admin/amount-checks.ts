import { html } from '../edge/html/template.ts';
import type { Html } from '../edge/html/template.ts';
import { belowOneKrone } from '../tools/money-warnings.ts';
import { formatMoney } from './format.ts';
import { t } from './strings.ts';

/** More than half off the current price is more often a lost digit than a sale, so the console asks first. */
const CUT_ASKED = 0.5;

export type AmountCheck = { label: string; amount: number | undefined; before?: number | undefined };

/**
 * What looks like a slip in the amounts about to be saved, in plain words: the tool's own below-one-krone warning
 * (run here without writing, so nothing is saved before the person has seen it) and a price cut over half.
 */
export function amountWarnings(checks: readonly AmountCheck[], currency: string): string[] {
  const money = (minor: number) => formatMoney(minor, currency);
  return checks.flatMap(({ label, amount, before }) => {
    if (amount === undefined) return [];
    const slips = belowOneKrone(label, amount).map(() => t.amountChecks.belowOne(label, money(amount)));
    if (before !== undefined && before > 0 && amount < before * (1 - CUT_ASKED)) {
      slips.push(t.amountChecks.cut(label, money(before), money(amount), Math.round((1 - amount / before) * 100)));
    }
    return slips;
  });
}

/** True when the form was sent from the warning's "Save anyway" button. */
export function confirmedAnyway(body: Record<string, string | undefined>): boolean {
  return body.confirmed === '1';
}

/** The warnings above a form that came back unsaved. */
export function warningBox(warnings: readonly string[]): Html {
  return html`<div class="problem" role="alert"><p><strong>${t.amountChecks.title}</strong> ${t.amountChecks.lead}</p><ul>${warnings.map((warning) => html`<li>${warning}</li>`)}</ul></div>`;
}

/** The form's submit: "Save", or after a warning "Save anyway", which carries the person's yes (confirmed=1). */
export function saveButton(warned: boolean): Html {
  return warned ? html`<input type="hidden" name="confirmed" value="1"><button type="submit">${t.amountChecks.saveAnyway}</button>` : html`<button type="submit">${t.save}</button>`;
}
