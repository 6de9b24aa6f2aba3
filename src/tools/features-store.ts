import { eq } from 'drizzle-orm';
import { featureFlags } from '../db/schema.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { ToolContext } from './context.ts';

/** The named feature flags, their defaults and what they switch. */
export const FEATURES = {
  checkout: { default: true, description: 'cart.checkout creates orders; off → 422 feature_disabled.' },
  services_listing: { default: true, description: 'The public /services listing and offering pages; off → 404 there.' },
} as const;
export type FeatureName = keyof typeof FEATURES;

export function isFeatureName(name: string): name is FeatureName {
  return Object.hasOwn(FEATURES, name);
}

export async function isFeatureEnabled(db: ToolContext['db'], name: FeatureName): Promise<boolean> {
  const [row] = await db.select({ enabled: featureFlags.enabled }).from(featureFlags).where(eq(featureFlags.key, name));
  return row ? row.enabled : FEATURES[name].default;
}

export async function requireFeature(db: ToolContext['db'], name: FeatureName): Promise<void> {
  if (!(await isFeatureEnabled(db, name))) {
    throw new ToolError('feature_disabled', `The feature "${name}" is switched off by the shop operator.`);
  }
}
