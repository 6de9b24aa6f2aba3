import { z } from 'zod';
import { ToolError } from '../errors/tool-error.ts';

/** Who a rule holds: every agent, or only the API keys (by name) and OAuth applications (by client id) it names. */
const Targeting = {
  keys: z.array(z.string().trim().min(1).max(200)).min(1).max(100).optional()
    .meta({ description: 'Only these API keys (by name); with apps, either matches. Omitted: every agent.' }),
  apps: z.array(z.string().trim().min(1).max(200)).min(1).max(100).optional()
    .meta({ description: 'Only these OAuth applications (by client id).' }),
};

const Percent = z.number().min(0).max(100);
const Count = z.int().min(0).max(1_000_000);
const Oere = z.int().min(0).max(Number.MAX_SAFE_INTEGER);

/** The rule kinds (docs/behaviour.md#policies-and-approvals); every object is strict, so a misspelt field is refused by name. */
export function policyRuleSchema(toolNames: readonly string[]) {
  const known = new Set(toolNames);
  return z.discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('tool'),
      tool: z.string().refine((name) => known.has(name), { error: (issue) => `unknown tool ${JSON.stringify(issue.input)}` }),
      ...Targeting,
    }),
    z.strictObject({ kind: z.literal('price_drop'), percentOver: Percent, ...Targeting }),
    z.strictObject({ kind: z.literal('discount_over'), percentOver: Percent.optional(), fixedOverOere: Oere.optional(), ...Targeting })
      .refine((rule) => rule.percentOver !== undefined || rule.fixedOverOere !== undefined, 'give percentOver, fixedOverOere or both'),
    z.strictObject({ kind: z.literal('refund'), ...Targeting }),
    z.strictObject({
      kind: z.literal('daily_budget'), priceChanges: Count.optional(), discountsCreated: Count.optional(), refundsOere: Oere.optional(), ...Targeting,
    }).refine((rule) => rule.priceChanges !== undefined || rule.discountsCreated !== undefined || rule.refundsOere !== undefined,
      'give at least one of priceChanges, discountsCreated, refundsOere'),
  ], { error: (issue) => (issue.code === 'invalid_union' ? `unknown rule kind ${JSON.stringify((issue.input as { kind?: unknown } | undefined)?.kind)}; the kinds are tool, price_drop, discount_over, refund, daily_budget` : undefined) });
}

export type PolicyRule =
  | { kind: 'tool'; tool: string; keys?: string[]; apps?: string[] }
  | { kind: 'price_drop'; percentOver: number; keys?: string[]; apps?: string[] }
  | { kind: 'discount_over'; percentOver?: number; fixedOverOere?: number; keys?: string[]; apps?: string[] }
  | { kind: 'refund'; keys?: string[]; apps?: string[] }
  | { kind: 'daily_budget'; priceChanges?: number; discountsCreated?: number; refundsOere?: number; keys?: string[]; apps?: string[] };

export type PolicyDocument = { rules: PolicyRule[] };

export const EMPTY_POLICY: PolicyDocument = { rules: [] };

export function policyDocumentSchema(toolNames: readonly string[]) {
  return z.strictObject({ rules: z.array(policyRuleSchema(toolNames)).max(200) });
}

/**
 * A document as the owner sent it (text or parsed JSON), checked whole: JSON that does not parse, an unknown kind,
 * tool or field is refused with a message naming it, and nothing changes.
 */
export function parsePolicyDocument(source: unknown, toolNames: readonly string[]): PolicyDocument {
  let value = source;
  if (typeof source === 'string') {
    try {
      value = JSON.parse(source);
    } catch (error) {
      throw new ToolError('validation_failed', `The policy document is not JSON: ${(error as Error).message}`, {
        errors: [{ path: '', message: 'not JSON' }],
      });
    }
  }
  const parsed = policyDocumentSchema(toolNames).safeParse(value);
  if (parsed.success) return parsed.data as PolicyDocument;
  const errors = parsed.error.issues.flatMap((issue) => {
    const at = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ path: at ? `${at}.${key}` : key, message: `unknown field "${key}"` }));
    return [{ path: at, message: issue.message }];
  });
  const summary = errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ');
  throw new ToolError('validation_failed', `The policy document was not saved: ${summary}`, { errors });
}

/** The rule in plain words, for the held answer's `reason` and the console. */
export function describeRule(rule: PolicyRule): string {
  switch (rule.kind) {
    case 'tool':
      return `every ${rule.tool} call needs a person's approval`;
    case 'price_drop':
      return `a price cut of more than ${rule.percentOver} % needs a person's approval`;
    case 'discount_over': {
      const limits = [
        rule.percentOver !== undefined ? `more than ${rule.percentOver} % off` : undefined,
        rule.fixedOverOere !== undefined ? `more than ${rule.fixedOverOere} øre off` : undefined,
      ].filter(Boolean).join(' or ');
      return `a discount code of ${limits} needs a person's approval`;
    }
    case 'refund':
      return 'refunding an order needs a person\'s approval';
    case 'daily_budget':
      return 'this would go over the agent\'s daily budget';
  }
}
