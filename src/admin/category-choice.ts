import type { FastifyRequest } from 'fastify';
import type { Actor } from '../access/actor.ts';
import type { Html } from '../edge/html/template.ts';
import type { AppDeps } from '../deps.ts';
import { readTool } from './call.ts';
import { select } from './fields.ts';
import { t } from './strings.ts';

export type CategoryOption = { slug: string; name: string };

/** The shop's categories, as categories.list gives them to the signed-in person, for a product form's choice. */
export async function categoryOptions(deps: AppDeps, request: FastifyRequest, actor: Actor): Promise<CategoryOption[]> {
  return readTool<CategoryOption[]>(deps, request, actor, 'categories.list', { includeEmpty: true });
}

/**
 * A product's category chosen from the shop's categories rather than typed as a slug, so a typo cannot name
 * one that does not exist. A new product starts with no choice (the tool refuses a missing category by name);
 * a slug the list lacks (a category removed meanwhile) stays as an option so the form still shows what was sent.
 */
export function categoryChoice(categories: CategoryOption[], options: { value: string | undefined; error: string | undefined; creating: boolean }): Html {
  const known = categories.some((category) => category.slug === options.value);
  return select({
    name: 'categorySlug', label: t.products.categoryChoice, value: options.value ?? '', error: options.error, required: options.creating,
    options: [
      ...(options.creating && !options.value ? [{ value: '', label: t.products.chooseCategory }] : []),
      ...(options.value && !known ? [{ value: options.value, label: options.value }] : []),
      ...categories.map((category) => ({ value: category.slug, label: `${category.name} (${category.slug})` })),
    ],
  });
}
