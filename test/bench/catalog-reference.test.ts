import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BRANDS, CATEGORIES, FRAME_COLORS, LENS_COLORS, product } from '../../bench/eyewear-catalog.ts';
import { REPO_ROOT } from '../../bench/catalog.ts';

/**
 * Butik's catalog generator must produce exactly the catalog other systems are measured on, so benchmark
 * figures stay comparable. The reference generator lives outside this repository (in the shared folder of
 * the team's workspace); a clone without it skips this comparison, and needs nothing else from outside.
 */
const REFERENCE = join(REPO_ROOT, '..', 'shared', 'bench', 'catalog.mjs');

const Reference = z.object({
  CATEGORIES: z.array(z.unknown()),
  BRANDS: z.array(z.string()),
  FRAME_COLORS: z.array(z.unknown()),
  LENS_COLORS: z.array(z.unknown()),
  product: z.function({ input: [z.number()], output: z.unknown() }),
});

const skipWhy = existsSync(REFERENCE) ? '' : ` — skipped: the reference generator is not beside this clone (needs ../shared/bench/catalog.mjs)`;

describe.skipIf(!existsSync(REFERENCE))(`the catalog matches the reference generator (${REFERENCE})${skipWhy}`, () => {
  it('has the same categories, brands and colours', async () => {
    const reference = Reference.parse(await import(pathToFileURL(REFERENCE).href));
    expect(CATEGORIES).toEqual(reference.CATEGORIES);
    expect(BRANDS).toEqual(reference.BRANDS);
    expect(FRAME_COLORS).toEqual(reference.FRAME_COLORS);
    expect(LENS_COLORS).toEqual(reference.LENS_COLORS);
  });

  it('makes the very same product for every index sampled, from the first to the ten millionth', async () => {
    const reference = Reference.parse(await import(pathToFileURL(REFERENCE).href));
    const indices = [
      ...Array.from({ length: 5_000 }, (_, i) => i),
      ...Array.from({ length: 1_000 }, (_, i) => 5_000 + i * 9_973),
      99_999, 100_000, 999_999, 1_000_000, 9_999_999,
    ];
    for (const i of indices) expect(product(i), `product(${i})`).toEqual(reference.product(i));
  });
});
