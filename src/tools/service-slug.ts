import { eq, like, or } from 'drizzle-orm';
import { services } from '../db/schema.ts';
import { MAX_SLUG_LENGTH, slugify } from '../domain/slugify.ts';
import type { ToolContext } from '../context.ts';
import type { ServiceRow } from '../shop/content.ts';

type Db = ToolContext['db'];
type NewService = Omit<typeof services.$inferInsert, 'slug'>;

/** Room left at the end of a generated slug for a "-<n>" suffix. */
const SUFFIX_ROOM = 8;
const MAX_ATTEMPTS = 20;

/**
 * A slug made from the title when none is given, with -2, -3 … when taken. Candidates are
 * inserted with ON CONFLICT DO NOTHING, so a concurrent create of the same title takes the next number
 * instead of failing (a unique violation would abort the whole transaction).
 */
export async function insertWithGeneratedSlug(db: Db, values: NewService): Promise<ServiceRow> {
  const base = baseSlug(values.title);
  const taken = new Set(
    (await db.select({ slug: services.slug }).from(services)
      .where(or(eq(services.slug, base), like(services.slug, `${base}-%`)))).map((row) => row.slug),
  );
  let n = 1;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    let slug = n === 1 ? base : `${base}-${n}`;
    while (taken.has(slug)) {
      n += 1;
      slug = `${base}-${n}`;
    }
    const [row] = await db.insert(services).values({ ...values, slug })
      .onConflictDoNothing({ target: services.slug }).returning();
    if (row) return row;
    taken.add(slug);
  }
  throw new Error(`no free slug for "${base}" after ${MAX_ATTEMPTS} attempts`);
}

/** Titles with fewer than two usable characters ("Æ", "!!") still give a valid slug. */
function baseSlug(title: string): string {
  const slug = slugify(title, MAX_SLUG_LENGTH - SUFFIX_ROOM);
  if (slug.length >= 2) return slug;
  return slug ? `service-${slug}` : 'service';
}
