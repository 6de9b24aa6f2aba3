import { z } from 'zod';
import { featureFlags } from '../db/schema.ts';
import { ToolError } from '../errors/tool-error.ts';
import { Timestamp, toIso } from '../schema/common.ts';
import { defineTool, readOnly, write } from './define-tool.ts';
import type { AnyTool } from './define-tool.ts';
import { FEATURES, FEATURE_NAMES, isFeatureName, writeFeatureFlag } from '../shop/features.ts';
import type { FeatureFlagRow, FeatureName } from '../shop/features.ts';

const FeatureKey = z.string().min(1).max(100).meta({
  description: `Name of the flag; features.list shows them all (${FEATURE_NAMES.join(', ')}).`,
  examples: ['checkout'],
});

const FeatureFlag = z.strictObject({
  key: z.string().meta({ examples: ['checkout'] }),
  enabled: z.boolean().meta({ description: 'Whether the feature is on now (the stored value, else the default).' }),
  description: z.string().meta({ description: 'What the flag switches and what callers see when it is off.' }),
  default: z.boolean().meta({ description: 'The value the flag has until an operator sets it.' }),
  updatedAt: Timestamp.nullable().meta({ description: 'When the flag was last set; null while it has its default.' }),
});

function toFlag(key: FeatureName, row: FeatureFlagRow | undefined): z.input<typeof FeatureFlag> {
  const feature = FEATURES[key];
  return {
    key,
    enabled: row ? row.enabled : feature.default,
    description: feature.description,
    default: feature.default,
    updatedAt: row ? toIso(row.updatedAt) : null,
  };
}

export const listFeatures = defineTool({
  name: 'features.list',
  description: 'List every feature flag of the shop with its current value, its default and what it switches, '
    + 'e.g. checkout (off: cart.checkout answers 422 feature_disabled).',
  scope: 'features:read',
  annotations: readOnly('List feature flags'),
  input: z.strictObject({}).meta({ examples: [{}] }),
  output: z.array(FeatureFlag),
  async handler(_input, { db }) {
    const rows = await db.select().from(featureFlags);
    const stored = new Map(rows.map((row) => [row.key, row]));
    return FEATURE_NAMES.map((key) => toFlag(key, stored.get(key)));
  },
});

export const setFeature = defineTool({
  name: 'features.set',
  description: 'Switch a feature flag on or off, e.g. {"key": "checkout", "enabled": false} to pause new orders. '
    + 'Takes effect at once; an unknown key is 404 not_found. Audited (targetType "feature") and revertible with audit.revert.',
  scope: 'features:write',
  annotations: write('Set feature flag', { idempotent: true }),
  input: z.strictObject({
    key: FeatureKey,
    enabled: z.boolean().meta({ description: 'true switches the feature on, false off.' }),
  }).meta({ examples: [{ key: 'checkout', enabled: false }] }),
  output: FeatureFlag,
  async handler({ key, enabled }, ctx) {
    if (!isFeatureName(key)) {
      throw new ToolError('not_found', `No feature flag "${key}"; the flags are: ${FEATURE_NAMES.join(', ')}.`);
    }
    const { before, after, changed } = await writeFeatureFlag(ctx.db, { key, enabled, now: ctx.clock() });
    if (changed) await ctx.audit({ targetType: 'feature', targetId: key, before, after });
    return toFlag(key, after);
  },
});

export const featureTools: AnyTool[] = [listFeatures, setFeature];
