import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { services } from '../db/schema.ts';
import { ToolError } from '../errors/tool-error.ts';
import { Confirm, Id, Slug, SlugRef, toIso } from '../schema/common.ts';
import { ServiceFields, ServiceRecord, ServiceSummary } from '../schema/service.ts';
import type { ToolContext } from '../context.ts';
import { findService, listServices, serviceUrl } from '../shop/content.ts';
import type { ServiceRow } from '../shop/content.ts';
import { currentVersion } from '../shop/record-version.ts';
import { defineTool, readOnly, write } from './define-tool.ts';
import { requireVersion } from './version-check.ts';
import type { AnyTool } from './define-tool.ts';
import { insertWithGeneratedSlug } from './service-slug.ts';

function toRecord(row: ServiceRow, baseUrl: string): z.input<typeof ServiceRecord> {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    body: row.body,
    shortDescription: row.shortDescription,
    priceString: row.priceString,
    heroImage: row.heroImage,
    features: row.features,
    showInNav: row.showInNav,
    navOrder: row.navOrder,
    status: row.status,
    publicUrl: serviceUrl(baseUrl, row.slug),
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

export const createService = defineTool({
  name: 'services.create',
  description: 'Create an agency-style service offering, shown at /services unless status is draft. Without a slug '
    + 'one is made from the title (æ→ae, ø→oe, å→aa; -2, -3 … when taken); an explicit slug that exists is 409.',
  scope: 'pages:write',
  annotations: write('Create service offering', { idempotent: false }),
  input: z.strictObject({
    title: ServiceFields.title,
    body: ServiceFields.body,
    slug: Slug.optional().meta({ description: 'Omitted: generated from the title. Cannot be changed later.' }),
    shortDescription: ServiceFields.shortDescription.optional(),
    priceString: ServiceFields.priceString.optional(),
    heroImage: ServiceFields.heroImage.optional(),
    features: ServiceFields.features.default([]),
    showInNav: ServiceFields.showInNav.default(false),
    navOrder: ServiceFields.navOrder.default(0),
    status: ServiceFields.status.default('published'),
  })
    .meta({ examples: [{ title: 'Synsprøve', body: '## Sådan foregår det\n\nEn optiker måler dit syn på 20 minutter.', shortDescription: 'Grundig synsprøve hos en optiker.', priceString: 'Fra 150 kr.', features: ['20 minutter', 'Autoriseret optiker'], showInNav: true, navOrder: 10 }] }),
  output: z.strictObject({ id: Id, slug: z.string(), status: ServiceFields.status, publicUrl: z.string() }),
  async handler(input, ctx) {
    const { slug, ...fields } = input;
    const row = slug === undefined
      ? await insertWithGeneratedSlug(ctx.db, fields)
      : await insertWithSlug(ctx, { ...fields, slug });
    await ctx.audit({ targetType: 'service', targetId: row.id, before: null, after: row });
    return { id: row.id, slug: row.slug, status: row.status, publicUrl: serviceUrl(ctx.baseUrl, row.slug) };
  },
});

async function insertWithSlug(ctx: ToolContext, values: typeof services.$inferInsert): Promise<ServiceRow> {
  const [row] = await ctx.db.insert(services).values(values).onConflictDoNothing({ target: services.slug }).returning();
  if (!row) throw new ToolError('already_exists', `A service offering with slug "${values.slug}" already exists.`);
  return row;
}

export const updateService = defineTool({
  name: 'services.update',
  description: 'Change fields of a service offering. The slug identifies it and cannot be changed (422 slug_immutable). '
    + 'patch.status moves it between draft and published.',
  scope: 'pages:write',
  annotations: write('Update service offering', { idempotent: true }),
  input: z.strictObject({
    slug: SlugRef.meta({ description: 'The offering to change.' }),
    patch: z.strictObject({
      slug: z.string().optional().meta({ description: 'Not changeable: any value other than the current slug is rejected.' }),
      title: ServiceFields.title.optional(),
      body: ServiceFields.body.optional(),
      shortDescription: ServiceFields.shortDescription.optional(),
      priceString: ServiceFields.priceString.optional(),
      heroImage: ServiceFields.heroImage.optional(),
      features: ServiceFields.features.optional(),
      showInNav: ServiceFields.showInNav.optional(),
      navOrder: ServiceFields.navOrder.optional(),
      status: ServiceFields.status.optional(),
    }).meta({ description: 'The fields to change, with the rules of services.create; omitted fields stay as they are.' }),
  }).meta({ examples: [{ slug: 'synsproeve', patch: { priceString: 'Fra 175 kr.', status: 'published' } }] }),
  output: z.strictObject({ id: Id, slug: z.string() }),
  async handler({ slug, patch }, ctx) {
    const before = await findService(ctx.db, slug, { lock: true });
    await requireVersion(ctx, {
      table: services, id: before.id, readTool: 'services.get', current: async () => toRecord(await findService(ctx.db, before.slug), ctx.baseUrl),
    });
    if (patch.slug !== undefined && patch.slug !== before.slug) {
      throw new ToolError('slug_immutable', `The slug of service offering "${slug}" cannot be changed to "${patch.slug}".`);
    }
    const { slug: _unchanged, ...fields } = patch;
    const [after] = await ctx.db.update(services).set({ ...fields, updatedAt: ctx.clock() })
      .where(eq(services.id, before.id)).returning();
    await ctx.audit({ targetType: 'service', targetId: before.id, before, after });
    return { id: before.id, slug: before.slug };
  },
  version: (service, { db }) => currentVersion(db, services, service.id),
});

export const listServiceOfferings = defineTool({
  name: 'services.list',
  description: 'List service offerings, drafts included unless status filters, by navOrder then title.',
  scope: 'pages:read',
  annotations: readOnly('List service offerings'),
  input: z.strictObject({ status: ServiceFields.status.optional().meta({ description: 'Only offerings with this status.' }) })
    .meta({ examples: [{}, { status: 'draft' }] }),
  output: z.array(ServiceSummary),
  async handler({ status }, ctx) {
    const rows = await listServices(ctx.db, status);
    return rows.map((row) => ({
      id: row.id,
      slug: row.slug,
      title: row.title,
      shortDescription: row.shortDescription,
      priceString: row.priceString,
      status: row.status,
      showInNav: row.showInNav,
      navOrder: row.navOrder,
      publicUrl: serviceUrl(ctx.baseUrl, row.slug),
      updatedAt: toIso(row.updatedAt),
    }));
  },
});

export const getService = defineTool({
  name: 'services.get',
  description: 'Get one service offering by slug, draft or published, with every field.',
  scope: 'pages:read',
  annotations: readOnly('Get service offering'),
  input: z.strictObject({ slug: SlugRef.meta({ description: 'The offering slug.', examples: ['synsproeve'] }) })
    .meta({ examples: [{ slug: 'synsproeve' }] }),
  output: ServiceRecord,
  async handler({ slug }, ctx) {
    return toRecord(await findService(ctx.db, slug), ctx.baseUrl);
  },
  version: (service, { db }) => currentVersion(db, services, service.id),
});

export const deleteService = defineTool({
  name: 'services.delete',
  description: 'Delete a service offering for good; the audit entry keeps it, so audit.revert can bring it back. '
    + 'Requires confirm: true.',
  scope: 'pages:write',
  annotations: write('Delete service offering', { idempotent: true, destructive: true }),
  input: z.strictObject({ slug: Slug, confirm: Confirm }).meta({ examples: [{ slug: 'synsproeve', confirm: true }] }),
  output: z.strictObject({ ok: z.literal(true), slug: z.string() }),
  async handler({ slug }, ctx) {
    const before = await findService(ctx.db, slug, { lock: true });
    await ctx.db.delete(services).where(eq(services.id, before.id));
    await ctx.audit({ targetType: 'service', targetId: before.id, before, after: null });
    return { ok: true as const, slug: before.slug };
  },
});

export const serviceTools: AnyTool[] = [createService, updateService, listServiceOfferings, getService, deleteService];
