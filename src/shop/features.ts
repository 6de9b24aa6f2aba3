import { eq } from 'drizzle-orm';
import { cachedRead, markConfigWritten } from '../db/read-cache.ts';
import { featureFlags } from '../db/schema.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { Queryable } from '../db/client.ts';

export type FeatureFlagRow = typeof featureFlags.$inferSelect;

/** The named feature flags, their defaults and what they switch. A flag without a stored row has its default. */
export const FEATURES = {
  checkout: { default: true, description: 'cart.checkout creates orders; off → 422 feature_disabled.' },
  services_listing: { default: true, description: 'The public /services listing and offering pages; off → 404 there.' },
} as const;
export type FeatureName = keyof typeof FEATURES;

export const FEATURE_NAMES = Object.keys(FEATURES).filter(isFeatureName);

export function isFeatureName(name: string): name is FeatureName {
  return Object.hasOwn(FEATURES, name);
}

/** Every flag's stored value, kept in memory between changes (src/db/read-cache.ts says how it never goes stale). */
const storedFlags = cachedRead(async (db) => new Map(
  (await db.select({ key: featureFlags.key, enabled: featureFlags.enabled }).from(featureFlags)).map((row) => [row.key, row.enabled]),
));

export async function isFeatureEnabled(db: Queryable, name: FeatureName): Promise<boolean> {
  return (await storedFlags(db)).get(name) ?? FEATURES[name].default;
}

export async function requireFeature(db: Queryable, name: FeatureName): Promise<void> {
  if (!(await isFeatureEnabled(db, name))) {
    throw new ToolError('feature_disabled', `The feature "${name}" is switched off by the shop operator.`);
  }
}

/**
 * Stores a flag and returns the row before (null: none stored, the default applied) and after,
 * the snapshots audit.revert restores (targetType 'feature', targetId = key). A stored flag that already
 * has the value is left alone (changed: false).
 */
export async function writeFeatureFlag(
  db: Queryable,
  change: { key: FeatureName; enabled: boolean; now: Date },
): Promise<{ before: FeatureFlagRow | null; after: FeatureFlagRow; changed: boolean }> {
  markConfigWritten(db);
  const [before] = await db.select().from(featureFlags).where(eq(featureFlags.key, change.key)).for('update');
  if (before?.enabled === change.enabled) return { before, after: before, changed: false };
  const values = { enabled: change.enabled, description: FEATURES[change.key].description, updatedAt: change.now };
  const [after] = await db.insert(featureFlags)
    .values({ key: change.key, ...values })
    .onConflictDoUpdate({ target: featureFlags.key, set: values })
    .returning();
  if (!after) throw new Error('feature flag upsert returned no row');
  return { before: before ?? null, after, changed: true };
}
