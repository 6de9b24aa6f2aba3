import { z } from 'zod';
import { Id, Int, Timestamp, Url } from './common.ts';
import { isSafeImageSrc } from './layout.ts';

/** The write rules of docs/behaviour.md#service-offerings; shared by services.create and the patch of services.update. */
export const ServiceFields = {
  title: z.string().min(2).max(200).meta({ description: 'Title, 2 to 200 characters.', examples: ['Synsprøve'] }),
  body: z.string().min(1).max(50_000).meta({
    description: 'The long copy; markdown-like: "## " starts a heading, blank lines separate paragraphs.',
  }),
  shortDescription: z.string().min(1).max(500).meta({ description: 'Teaser shown in the /services listing, 1 to 500 characters.' }),
  priceString: z.string().min(1).max(100).meta({
    description: 'Free display text for the price, 1 to 100 characters; not a number.',
    examples: ['Fra 395 kr.'],
  }),
  heroImage: Url.max(2000).refine(isSafeImageSrc, { message: 'must be an http(s) URL without quotes, spaces or angle brackets' })
    .meta({ description: 'Hero image URL (http or https).' }),
  features: z.array(z.string().min(1).max(200)).max(30).meta({ description: 'Short bullet texts, at most 30.' }),
  showInNav: z.boolean().meta({
    description: 'Stored for the admin UI; does not by itself add a header navigation link. Default false.',
  }),
  navOrder: Int.meta({ description: 'Position in the /services listing, ascending. Default 0.' }),
  status: z.enum(['draft', 'published']).meta({ description: 'draft keeps the offering off the public /services.' }),
};

export const ServiceRecord = z.strictObject({
  id: Id,
  slug: z.string(),
  title: z.string(),
  body: z.string(),
  shortDescription: z.string().nullable(),
  priceString: z.string().nullable(),
  heroImage: z.string().nullable(),
  features: z.array(z.string()),
  showInNav: z.boolean(),
  navOrder: z.int(),
  status: ServiceFields.status,
  publicUrl: z.string().meta({ description: 'The offering\'s public page, BASE_URL/services/<slug>.' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const ServiceSummary = ServiceRecord.pick({
  id: true, slug: true, title: true, shortDescription: true, priceString: true, status: true, showInNav: true,
  navOrder: true, publicUrl: true, updatedAt: true,
});
