import { z } from 'zod';
import { defineTool, readOnly, write } from './define-tool.ts';
import type { AnyTool } from './define-tool.ts';
import { SettingsShape, isSettingKey, readSettings, writeSetting } from '../shop/settings.ts';

export const getSettings = defineTool({
  name: 'settings.get',
  description: 'Read the shop settings: name, public tagline, contact and company details, and the shipping rules '
    + 'cart.checkout prices with (shippingDkk and freeShippingThresholdDkk, both in øre incl. VAT), and the shop '
    + 'currency orders record. Settings never changed hold their defaults.',
  scope: 'settings:read',
  annotations: readOnly('Get shop settings'),
  input: z.strictObject({}).meta({ examples: [{}] }),
  output: SettingsShape,
  handler: (_input, { db }) => readSettings(db),
});

const SettingsPatch = SettingsShape.partial()
  .refine((patch) => Object.keys(patch).length > 0, { message: 'give at least one setting to change' })
  .meta({
    minProperties: 1,
    examples: [{ shippingDkk: 3900 }, { freeShippingThresholdDkk: 75000, tagline: 'Fri fragt over 750 kr.' }, { tagline: null }],
  });

export const updateSettings = defineTool({
  name: 'settings.update',
  description: 'Change some shop settings; fields left out keep their value, and null clears a nullable field. '
    + 'Amounts are øre incl. VAT (3900 = 39,00 kr). Returns all settings after the change. Each changed setting is '
    + 'one audit entry (targetType "settings", targetId the field name) that audit.revert can undo.',
  scope: 'settings:write',
  annotations: write('Update shop settings', { idempotent: true }),
  input: SettingsPatch,
  output: SettingsShape,
  async handler(patch, ctx) {
    const current = await readSettings(ctx.db);
    const now = ctx.clock();
    for (const [key, value] of Object.entries(patch)) {
      // Unchanged values are not rewritten, so a repeated call leaves no audit noise.
      if (!isSettingKey(key) || value === undefined || current[key] === value) continue;
      const { before, after } = await writeSetting(ctx.db, { key, value, now });
      await ctx.audit({ targetType: 'settings', targetId: key, before, after });
    }
    return readSettings(ctx.db);
  },
});

export const settingsTools: AnyTool[] = [getSettings, updateSettings];
