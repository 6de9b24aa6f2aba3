import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { openDatabase } from '../src/db/client.ts';
import type { Catalog } from './catalog.ts';
import { residentMb } from './footprint.ts';
import type { HttpRequest, LoadResult, RequestsJob } from './load-types.ts';
import { plainPaging, productSlugs, searchWithFilters, searchWithQ, toolCall } from './scenarios.ts';
import { fillCatalog } from './seed-catalog.ts';
import { startButik } from './servers.ts';

/** The catalog the embedded database is measured with, whatever the profile: a big shop for an embedded one. */
export const EMBEDDED_PRODUCTS = 20_000;

/** One embedded shop as `butik serve` runs it by default: resident memory idle and after load, start time. */
export type EmbeddedFootprint = {
  store: string;
  /** Spawn to the first ready /readyz, with the data already there. */
  readyMs: number;
  idleRssMb?: number;
  loadedRssMb?: number;
  /** Seconds of load between the two memory readings. */
  loadS: number;
  /** req/s per scenario under that load, for a sense of what the small engine serves. */
  rps: Record<string, number>;
};

type RunLoad = (job: RequestsJob) => Promise<LoadResult>;
type Options = { catalog: Catalog; durationS: number; connections: number; run: RunLoad; log: (line: string) => void };

/** The demo shop a first `npm start` seeds, and the 20,000-product catalog, each on the embedded default. */
export async function embeddedFootprints(options: Options): Promise<EmbeddedFootprint[]> {
  const demoDir = mkdtempSync(join(tmpdir(), 'butik-bench-demo-'));
  try {
    await (await startButik(undefined, { dataDir: demoDir, env: { BUTIK_SEED: 'demo' } })).close();
    const search = searchWithQ().map((body) => toolCall('products.search', body));
    const paging = plainPaging().map((body) => toolCall('products.search', body));
    const demo = await measureStore('demo shop', demoDir, { search_q: search, search_paging: paging }, options);
    const catalogDir = await seededCatalogDir(options.catalog, options.log);
    const slugs = productSlugs(options.catalog, EMBEDDED_PRODUCTS);
    const catalog = await measureStore(`${EMBEDDED_PRODUCTS.toLocaleString('en')} products`, catalogDir, {
      search_q: search,
      search_filters: searchWithFilters(options.catalog).map((body) => toolCall('products.search', body)),
      search_paging: paging,
      products_get: slugs.map((slug) => toolCall('products.get', { slug })),
    }, options);
    return [demo, catalog];
  } finally {
    rmSync(demoDir, { recursive: true, force: true });
  }
}

async function measureStore(store: string, dataDir: string, scenarios: Record<string, HttpRequest[]>, options: Options): Promise<EmbeddedFootprint> {
  const butik = await startButik(undefined, { dataDir });
  try {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const idleRssMb = residentMb(butik.pid);
    const started = performance.now();
    const rps: Record<string, number> = {};
    for (const [name, requests] of Object.entries(scenarios)) {
      const job = { kind: 'requests' as const, url: butik.url, requests, connections: options.connections };
      const measured = await options.run({ ...job, durationS: options.durationS });
      const failed = Object.entries(measured.statuses).filter(([status]) => !status.startsWith('2'));
      if (failed.length > 0 || measured.errors > 0) throw new Error(`embedded ${store}, ${name}: ${JSON.stringify(measured.statuses)}, ${measured.errors} errors`);
      rps[name] = measured.rps;
    }
    const footprint = {
      store, readyMs: butik.readyMs, idleRssMb, loadedRssMb: residentMb(butik.pid), loadS: Math.round((performance.now() - started) / 1000), rps,
    };
    options.log(`embedded, ${store}: ready in ${footprint.readyMs} ms, RSS ${idleRssMb ?? '?'} MB idle, ${footprint.loadedRssMb ?? '?'} MB after ${footprint.loadS} s of load`);
    return footprint;
  } finally {
    await butik.close();
  }
}

/**
 * An embedded data directory holding the catalog, kept in the temporary directory and reused while its marker
 * names the same catalog: seeding PGlite takes a while, and a second run should not pay for it again.
 */
async function seededCatalogDir(catalog: Catalog, log: (line: string) => void): Promise<string> {
  const dir = join(tmpdir(), `butik-bench-embedded-${EMBEDDED_PRODUCTS}`);
  const marker = join(dir, 'bench-catalog.json');
  const expected = JSON.stringify({ products: EMBEDDED_PRODUCTS, last: catalog.product(EMBEDDED_PRODUCTS - 1).slug });
  if (existsSync(marker) && readFileSync(marker, 'utf8') === expected) return dir;
  log(`seeding an embedded database with ${EMBEDDED_PRODUCTS} products in ${dir}`);
  rmSync(dir, { recursive: true, force: true });
  const database = await openDatabase({ dataDir: dir });
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
  const engine = await PGlite.create(join(dir, 'pgdata'), { extensions: { pg_trgm } });
  try {
    await fillCatalog(engine, catalog, { products: EMBEDDED_PRODUCTS, orders: 0 });
  } finally {
    await engine.close();
  }
  writeFileSync(marker, expected);
  return dir;
}
