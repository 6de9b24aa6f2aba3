import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { CATALOG, REPO_ROOT, SEARCH_TERMS } from './catalog.ts';
import { auditCheckout, checkoutOnBaseline, plentifulSlugs, prepareCheckout, restartCheckout, restoreCatalogStock } from './checkout.ts';
import { benchDatabaseUrl, prepareDatabase } from './database.ts';
import { startLoadGenerator } from './load.ts';
import type { CheckoutJob, HttpRequest, LoadResult, UcpCheckoutJob } from './load-types.ts';
import { checkAgainstBaseline, checkMcp, send } from './preflight.ts';
import { coldStart, residentMb, toolsListSize } from './footprint.ts';
import { embeddedFootprints } from './embedded-footprint.ts';
import { machineBusyPercent } from './machine-load.ts';
import { processCpuMs } from './process-cpu.ts';
import { mergeRuns } from './latency.ts';
import { markdown, ordersRatio, perOrder, ratio, writeResult } from './report.ts';
import type { BenchResult, ScenarioResult } from './report.ts';
import { adminPageTimes } from './admin-pages.ts';
import { targetsFor } from './targets.ts';
import {
  mcpCall, ordersListBodies, plainPaging, productSlugs, searchWithFilters, searchWithQ, ucpSearchCall, ucpSearchWithQ, toolCall,
} from './scenarios.ts';
import { catalogMatches, forgetEarlierRuns, seedCatalog } from './seed-catalog.ts';
import { startBaseline, startButik } from './servers.ts';
import type { ButikServer, RunningServer } from './servers.ts';
import { profileFor } from './profiles.ts';
import type { Profile } from './profiles.ts';

/**
 * npm run bench [-- --quick | --scale] [--out DIR] [--duration S] [--connections N] [--products N]
 *
 * Butik (`butik serve`, PostgreSQL) against a baseline server with the same SQL and no framework, one scenario
 * at a time, load from a separate process. Targets that are missed are reported, never fatal; wrong answers,
 * non-2xx responses and oversold stock are (exit 1).
 */
const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    scale: { type: 'boolean', default: false },
    out: { type: 'string' },
    duration: { type: 'string' },
    connections: { type: 'string' },
    products: { type: 'string' },
    /** Comma-separated scenario names to run (default: all); for looking at one thing at a time. */
    only: { type: 'string' },
  },
});
const only = values.only?.split(',').map((name) => name.trim()).filter(Boolean);
const profile: Profile = profileFor(values);
const log = (line: string) => process.stderr.write(`${line}\n`);

/** `fastify`: the same requests to a bare Fastify app with the same statement, beside the node:http baseline. */
/** `ucp`: Butik's side runs on the second server, the one with UCP on. */
/** `before` puts the shop into the state the scenario measures (run before each of its measurements). */
type Scenario = {
  name: string; label: string; butik: HttpRequest[]; baseline?: HttpRequest[]; fastify?: HttpRequest[]; ucp?: boolean; notAvailable?: string;
  before?: () => Promise<void>;
};
type Measure = { rate?: number; connections?: number; durationS?: number };

function realErrors(name: string, result: LoadResult): string[] {
  const errors: string[] = [];
  const bad = Object.entries(result.statuses).filter(([status]) => !status.startsWith('2'));
  if (bad.length > 0) errors.push(`${name}: non-2xx responses ${bad.map(([s, n]) => `${s}×${n}`).join(', ')}`);
  if (result.errors > 0 || result.timeouts > 0) errors.push(`${name}: ${result.errors} errors, ${result.timeouts} timeouts`);
  if (result.requests === 0) errors.push(`${name}: no responses at all`);
  return errors;
}

async function createKey(butik: ButikServer, name = 'bench', scopes = ['catalog:read', 'cart:write', 'orders:read']): Promise<string> {
  const response = await fetch(`${butik.url}/api/v1/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${butik.masterKey}` },
    body: JSON.stringify({ name, scopes }),
  });
  const body: unknown = await response.json();
  const result = typeof body === 'object' && body !== null ? Reflect.get(body, 'result') : undefined;
  const key = typeof result === 'object' && result !== null ? Reflect.get(result, 'key') : undefined;
  if (response.status !== 201 || typeof key !== 'string') throw new Error(`could not create a bench key: ${response.status} ${JSON.stringify(body)}`);
  return key;
}

/**
 * The owner's policy document (docs/behaviour.md#policies-and-approvals), set through the owner command the CLI
 * uses. The policy scenarios measure one write with and without a document whose rule applies to every agent but
 * holds another tool: what the policy stage costs a call that no rule holds.
 */
async function setPolicies(butik: ButikServer, rules: unknown[]): Promise<void> {
  const response = await fetch(`${butik.url}/api/v1/commands/policies.set`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${butik.masterKey}` },
    body: JSON.stringify({ document: { rules } }),
  });
  if (response.status !== 200) throw new Error(`could not set the bench policies: ${response.status} ${await response.text()}`);
}

async function postgresVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ v: string }>("select current_setting('server_version') as v")).rows[0]?.v ?? 'unknown';
  } finally {
    await client.end();
  }
}

async function main(): Promise<number> {
  const started = performance.now();
  // bin/butik.js runs the bundle only while it is newer than the sources, else the sources through a TypeScript
  // loader that costs about 100 MB and half a second: measure what an installed Butik runs, never the fallback.
  execFileSync(process.execPath, [join(REPO_ROOT, 'scripts', 'build.mjs')], { cwd: REPO_ROOT, stdio: 'inherit' });
  const catalog = CATALOG;
  const url = benchDatabaseUrl(profile.database);
  await prepareDatabase(url);
  const seed = { products: profile.products, orders: profile.orders };
  if (await catalogMatches(url, catalog, seed)) {
    log(`reusing ${profile.database}: ${profile.products} products, ≥ ${profile.orders} orders`);
    await forgetEarlierRuns(url);
  } else {
    await seedCatalog(url, catalog, seed);
  }

  // Another process's work would weigh on every figure; the report says so rather than compare quietly.
  const busyPercent = await machineBusyPercent();
  if (busyPercent > BUSY_PERCENT) log(`the machine is ${busyPercent} % busy before the run: figures are not comparable`);
  const result: BenchResult = {
    meta: {
      busyPercentBeforeStart: busyPercent,
      busyBeforeStart: busyPercent > BUSY_PERCENT,
      profile: profile.name, products: profile.products, orders: profile.orders, durationS: profile.durationS,
      connections: profile.connections, cpus: cpus().length, node: process.version, postgres: await postgresVersion(url),
      loadAverage: loadavg().map((n) => n.toFixed(2)).join(' '), startedAt: new Date().toISOString(),
    },
    scenarios: [], ratios: {}, targets: [], errors: [],
  };
  const servers: RunningServer[] = [];
  const load = startLoadGenerator();
  try {
    const butik = await startButik(url);
    servers.push(butik);
    const baseline = await startBaseline(url);
    servers.push(baseline);
    const fastify = await startBaseline(url, 'fastify-baseline-server.ts');
    servers.push(fastify);
    const key = await createKey(butik);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    result.footprint = { idleRssMb: residentMb(butik.pid), ...await toolsListSize(butik.url, butik.masterKey) };
    const loadStarted = performance.now();

    const search = (bodies: unknown[]) => bodies.map((body) => toolCall('products.search', body));
    const slugs = productSlugs(catalog, profile.products);
    // An agent's write that changes nothing (each product's own name again): repeatable, and audited as any write.
    const writer = await createKey(butik, 'bench-writer', ['products:write']);
    const agentWrites = Array.from({ length: 16 }, (_, i) => catalog.product(Math.floor(((i + 0.5) / 16) * profile.products)))
      .map((product) => toolCall('products.update', { slug: product.slug, patch: { name: product.name } }, writer));
    const scenarios: Scenario[] = [
      { name: 'search_q', label: 'products.search with q', butik: search(searchWithQ()), baseline: search(searchWithQ()) },
      { name: 'search_filters', label: 'products.search with filters', butik: search(searchWithFilters(catalog)), baseline: search(searchWithFilters(catalog)) },
      { name: 'search_paging', label: 'products.search, plain paging', butik: search(plainPaging()), baseline: search(plainPaging()) },
      {
        name: 'products_get',
        label: 'products.get (anonymous)',
        butik: slugs.map((slug) => toolCall('products.get', { slug })),
        baseline: slugs.map((slug) => toolCall('products.get', { slug })),
        fastify: slugs.map((slug) => toolCall('products.get', { slug })),
      },
      { name: 'products_get_auth', label: 'products.get (API key)', butik: slugs.map((slug) => toolCall('products.get', { slug }, key)) },
      { name: 'mcp_search', label: 'MCP tools/call products.search', butik: searchWithQ().map((args) => mcpCall('products.search', args)) },
      { name: 'ucp_search', label: 'UCP catalog search (POST /catalog/search)', butik: ucpSearchWithQ(), ucp: true },
      {
        name: 'update_plain', label: 'products.update by an agent, no policy document', butik: agentWrites,
        before: () => setPolicies(butik, []),
      },
      {
        name: 'update_policed', label: 'products.update by an agent, a policy in force that holds another tool', butik: agentWrites,
        before: () => setPolicies(butik, [{ kind: 'tool', tool: 'products.delete' }]),
      },
    ];
    if (profile.ordersList) {
      scenarios.push({ name: 'orders_list', label: 'orders.list (API key)', butik: ordersListBodies().map((body) => toolCall('orders.list', body, key)) });
    }
    if (only) scenarios.splice(0, scenarios.length, ...scenarios.filter((s) => only.includes(s.name)));
    // UCP catalog search needs UCP on; the first server keeps it off (its tools/list is the one the footprint measures).
    const ucpServer = scenarios.some((s) => s.ucp) ? await startButik(url, { env: { BUTIK_UCP_MODE: 'test' } }) : undefined;
    if (ucpServer) servers.push(ucpServer);

    log('checking every scenario request against the baseline and MCP against REST');
    for (const scenario of scenarios) {
      if (scenario.name === 'mcp_search') {
        const check = await checkMcp(butik.url, searchWithQ().map((args) => ({ mcp: mcpCall('products.search', args), rest: toolCall('products.search', args) })));
        if (check.state === 'unavailable') scenario.notAvailable = `/api/mcp: ${check.reason}`;
        if (check.state === 'broken') result.errors.push(`MCP: ${check.reason}`);
        continue;
      }
      if (scenario.name === 'ucp_search' && ucpServer) {
        result.errors.push(...await checkUcpSearch(butik.url, ucpServer.url));
        continue;
      }
      if (scenario.name === 'orders_list') {
        const probe = await send(butik.url, toolCall('orders.list', {}, key));
        if (probe.status === 404) { scenario.notAvailable = 'orders.list is not a tool yet'; continue; }
      }
      result.errors.push(...await checkAgainstBaseline(butik.url, scenario.baseline ? baseline.url : undefined, scenario.butik));
      if (scenario.fastify) result.errors.push(...await checkAgainstBaseline(butik.url, fastify.url, scenario.fastify));
    }
    if (result.errors.length > 0) throw new Error(`preflight failed:\n${result.errors.join('\n')}`);

    const measure = async (name: string, target: RunningServer, requests: HttpRequest[], options: Measure = {}) => {
      const { rate, connections = profile.connections, durationS = profile.durationS } = options;
      const job = { kind: 'requests' as const, url: target.url, requests, connections };
      await load.run({ ...job, durationS: profile.warmupS, ...(rate ? { rate } : {}) });
      const cpuBefore = processCpuMs(target.pid);
      const measured = await load.run({ ...job, durationS, ...(rate ? { rate } : {}) });
      const cpuAfter = processCpuMs(target.pid);
      if (cpuBefore !== undefined && cpuAfter !== undefined && measured.requests > 0) {
        measured.serverCpuMsPerRequest = Math.round(((cpuAfter - cpuBefore) / measured.requests) * 1000) / 1000;
      }
      result.errors.push(...realErrors(name, measured));
      log(`${name}: ${measured.rps} req/s, p50 ${measured.latency.p50} ms, p99 ${measured.latency.p99} ms, `
        + `server CPU ${measured.serverCpuMsPerRequest ?? '?'} ms/request`);
      return measured;
    };
    // Two rounds of half the time each, the second in reverse order: whatever drifts during a run (caches,
    // JIT, other work on the machine) then weighs on every scenario and every pair alike.
    const half = Math.max(1, Math.round(profile.durationS / 2));
    const available = scenarios.filter((scenario) => !scenario.notAvailable);
    const rounds = [available, [...available].reverse()];
    const measured = new Map<string, { butik?: LoadResult; baseline?: LoadResult; fastify?: LoadResult }>();
    for (const [round, order] of rounds.entries()) {
      for (const scenario of order) {
        const so = measured.get(scenario.name) ?? {};
        await scenario.before?.();
        const butikRun = await measure(`${scenario.name} (Butik, round ${round + 1})`, scenario.ucp && ucpServer ? ucpServer : butik, scenario.butik, { durationS: half });
        so.butik = so.butik ? mergeRuns(so.butik, butikRun) : butikRun;
        if (scenario.baseline) {
          const baselineRun = await measure(`${scenario.name} (baseline, round ${round + 1})`, baseline, scenario.baseline, { durationS: half });
          so.baseline = so.baseline ? mergeRuns(so.baseline, baselineRun) : baselineRun;
        }
        if (scenario.fastify) {
          const fastifyRun = await measure(`${scenario.name} (bare Fastify, round ${round + 1})`, fastify, scenario.fastify, { durationS: half });
          so.fastify = so.fastify ? mergeRuns(so.fastify, fastifyRun) : fastifyRun;
        }
        measured.set(scenario.name, so);
      }
    }
    for (const scenario of scenarios) {
      const entry: ScenarioResult = { name: scenario.name, label: scenario.label, ...measured.get(scenario.name) };
      if (scenario.notAvailable) { entry.notAvailable = scenario.notAvailable; log(`${scenario.name}: not available`); }
      result.scenarios.push(entry);
    }
    const byName = (name: string) => result.scenarios.find((s) => s.name === name);
    const searchQ = byName('search_q')?.butik;
    const searchRequests = scenarios.find((s) => s.name === 'search_q')?.butik;
    if (searchQ && searchRequests) {
      // p99 at half the measured maximum: latency with headroom, not the queueing of a saturated server.
      const rate = Math.max(1, Math.round(searchQ.rps / 2));
      // The baseline at the same pace in the same run: what the machine's own tail is at that load.
      const baselineRequests = scenarios.find((s) => s.name === 'search_q')?.baseline ?? searchRequests;
      result.halfRate = {
        rate,
        butik: await measure(`search_q at ${rate} req/s (Butik)`, butik, searchRequests, { rate }),
        baseline: await measure(`search_q at ${rate} req/s (baseline)`, baseline, baselineRequests, { rate }),
      };
      // One client, one request at a time: the latency of a search itself, without queueing behind others.
      result.oneClient = { butik: await measure('search_q, one connection (Butik)', butik, searchRequests, { connections: 1 }) };
    }

    if (profile.checkout && (!only || only.includes('checkout'))) {
      const fixture = await prepareCheckout(url, butik, { catalog, products: profile.products });
      if (!fixture.available) {
        result.checkout = { notAvailable: fixture.reason };
        log(`checkout: not available (${fixture.reason})`);
      } else {
        try {
          // Warmed up like every other scenario, without the code so that its limited uses are all left for the run.
          await load.run({
            kind: 'checkout', url: butik.url, key, slugs: plentifulSlugs(fixture.value), discountCode: fixture.value.discountCode,
            clients: 50, durationS: profile.warmupS,
          });
          fixture.value = await restartCheckout(url, fixture.value);
          const cpuBefore = processCpuMs(butik.pid);
          const run = await load.run({
            kind: 'checkout', url: butik.url, key, slugs: fixture.value.slugs, discountCode: fixture.value.discountCode,
            discountEvery: 4, clients: 50, durationS: profile.durationS,
          });
          const cpuAfter = processCpuMs(butik.pid);
          if (cpuBefore !== undefined && cpuAfter !== undefined && run.requests > 0) {
            run.serverCpuMsPerRequest = Math.round(((cpuAfter - cpuBefore) / run.requests) * 1000) / 1000;
          }
          const outcome = run.checkout;
          if (!outcome) throw new Error('checkout run returned no outcome');
          const audit = await auditCheckout(url, fixture.value, outcome);
          result.checkout = { result: run, audit };
          if (outcome.unexpected > 0) result.errors.push(`checkout: ${outcome.unexpected} unexpected failures, e.g. ${outcome.unexpectedSamples.join(' | ')}`);
          if (run.errors > 0) result.errors.push(`checkout: ${run.errors} transport errors`);
          result.errors.push(...audit.violations.map((v) => `checkout audit: ${v}`));
          log(`checkout: ${outcome.ordersPerSecond} orders/s, ${audit.violations.length} violations`);
          const bare = await checkoutOnBaseline(url, baseline.url, fixture.value, { ...profile, run: (job) => load.run(job), baselinePid: baseline.pid });
          result.checkout.baseline = bare;
          const bareOutcome = bare.result.checkout;
          if (bareOutcome && bareOutcome.unexpected > 0) result.errors.push(`baseline checkout: ${bareOutcome.unexpected} unexpected failures, e.g. ${bareOutcome.unexpectedSamples.join(' | ')}`);
          result.errors.push(...bare.audit.violations.map((v) => `baseline checkout audit: ${v}`));
          log(`checkout (baseline): ${bareOutcome?.ordersPerSecond} orders/s, ${bare.audit.violations.length} violations`);
          // The scarce products are sold out by now; refusals would be counted as cheap requests in what follows.
          const plenty = plentifulSlugs(fixture.value);
          result.checkout.variants = await checkoutVariants(butik, key, plenty, (job) => load.run(job));
          if (!only || only.includes('ucp_checkout')) {
            result.ucpCheckout = await ucpCheckout(url, plenty, perOrder(run), (job) => load.run(job));
            const ucp = result.ucpCheckout.result?.checkout;
            if (ucp && ucp.unexpected > 0) result.errors.push(`ucp_checkout: ${ucp.unexpected} unexpected failures, e.g. ${ucp.unexpectedSamples.join(' | ')}`);
          }
        } finally {
          await restoreCatalogStock(url, fixture.value, catalog);
        }
      }
    }
    if (result.footprint) {
      result.footprint.loadedRssMb = residentMb(butik.pid);
      result.footprint.loadS = Math.round((performance.now() - loadStarted) / 1000);
    }
    if (!only || only.includes('admin_pages')) {
      log('timing every console page');
      const [productSlug] = slugs;
      if (productSlug) result.adminPages = await adminPageTimes(butik, { productSlug });
    }
    if (!only || only.includes('embedded')) {
      // The embedded default, as `npm start` runs it, beside the PostgreSQL figures.
      result.embedded = await embeddedFootprints({
        catalog, durationS: profile.durationS, connections: profile.connections, run: (job) => load.run(job), log,
      });
    }

    const get = byName('products_get')?.butik;
    const getAuth = byName('products_get_auth')?.butik;
    const mcp = byName('mcp_search')?.butik;
    result.ratios = {
      searchVsBaseline: ratio(searchQ, byName('search_q')?.baseline),
      searchFiltersVsBaseline: ratio(byName('search_filters')?.butik, byName('search_filters')?.baseline),
      pagingVsBaseline: ratio(byName('search_paging')?.butik, byName('search_paging')?.baseline),
      getVsBaseline: ratio(get, byName('products_get')?.baseline),
      /** What Butik adds to the framework it is built on. */
      getVsFastify: ratio(get, byName('products_get')?.fastify),
      /** What the framework costs against node:http. */
      fastifyVsBaseline: ratio(byName('products_get')?.fastify, byName('products_get')?.baseline),
      /** Cost of one MCP call in units of one REST call (REST req/s ÷ MCP req/s). */
      mcpVsRest: ratio(searchQ, mcp),
      /** UCP catalog search req/s as a multiple of products.search's, the same searches. */
      ucpSearchVsRest: ratio(byName('ucp_search')?.butik, searchQ),
      /** Cost of an authenticated call in units of an anonymous one. */
      authVsAnon: ratio(get, getAuth),
      /** Cost of a write no rule holds with a policy document in force, in units of the same write without one. */
      policyStageCost: ratio(byName('update_plain')?.butik, byName('update_policed')?.butik),
      /** Orders/s against the baseline running the same statements for the same shoppers. */
      checkoutVsBaseline: ordersRatio(result.checkout?.result, result.checkout?.baseline?.result),
    };
  } catch (error) {
    result.errors.push(error instanceof Error ? error.message : String(error));
  } finally {
    load.close();
    await Promise.all(servers.map((server) => server.close()));
  }
  try {
    result.footprint = { ...result.footprint, ...await coldStart() };
  } catch (error) {
    result.errors.push(`cold start: ${error instanceof Error ? error.message : String(error)}`);
  }
  result.targets = targetsFor(result, profile);
  result.meta.totalS = Math.round((performance.now() - started) / 100) / 10;
  if (values.out) writeResult(values.out, result);
  process.stdout.write(markdown(result));
  return result.errors.length > 0 ? 1 : 0;
}

/** Above this share of CPU time used by others in the second before the run, its figures are not comparable. */
const BUSY_PERCENT = 25;

/**
 * The discount row is the checkout's hot spot, so it is measured apart: every cart on one code
 * without a usage limit (each checkout locks that row), and no code at all (only product rows contend).
 */
async function checkoutVariants(
  butik: ButikServer,
  key: string,
  slugs: string[],
  run: (job: CheckoutJob) => Promise<LoadResult>,
): Promise<NonNullable<BenchResult['checkout']>['variants']> {
  const code = `HOT${Date.now()}`;
  const created = await send(butik.url, toolCall('discounts.create', { code, type: 'percent', value: 5 }, butik.masterKey));
  if (created.status !== 200) throw new Error(`discounts.create → ${created.status}`);
  const job = { kind: 'checkout' as const, url: butik.url, key, slugs, discountCode: code, clients: 50, durationS: profile.durationS };
  const hotDiscount = await run({ ...job, discountEvery: 1 });
  const noDiscount = await run(job);
  log(`checkout, one hot code: ${hotDiscount.checkout?.ordersPerSecond} orders/s; no code: ${noDiscount.checkout?.ordersPerSecond} orders/s`);
  return { hotDiscount, noDiscount };
}

/**
 * UCP catalog search must find what products.search finds, in its order: the same search behind another face.
 */
async function checkUcpSearch(restUrl: string, ucpUrl: string): Promise<string[]> {
  const errors: string[] = [];
  for (const [index, q] of SEARCH_TERMS.entries()) {
    const rest = await send(restUrl, toolCall('products.search', searchWithQ()[index]));
    const ucp = await send(ucpUrl, ucpSearchCall(q));
    const restIds = ((rest.body as { result?: Array<{ id: string }> }).result ?? []).map((p) => p.id);
    const ucpIds = ((ucp.body as { products?: Array<{ id: string }> }).products ?? []).map((p) => p.id);
    if (ucp.status !== 200 || JSON.stringify(restIds) !== JSON.stringify(ucpIds)) {
      errors.push(`ucp_search "${q}": ${ucp.status}, ${ucpIds.length} products against products.search's ${restIds.length}, or another order`);
    }
  }
  return errors;
}

/**
 * The same shoppers through UCP, on a second server over the same database with UCP switched on
 * (the first keeps UCP off, so its tools/list holds only the every-shop tools the footprint measures).
 */
async function ucpCheckout(
  databaseUrl: string,
  slugs: string[],
  cartCpuMsPerOrder: number | undefined,
  run: (job: UcpCheckoutJob) => Promise<LoadResult>,
): Promise<NonNullable<BenchResult['ucpCheckout']>> {
  const server = await startButik(databaseUrl, { env: { BUTIK_UCP_MODE: 'test' } });
  try {
    const job = { kind: 'ucp_checkout' as const, url: server.url, slugs, clients: 50 };
    await run({ ...job, durationS: profile.warmupS });
    const cpuBefore = processCpuMs(server.pid);
    const measured = await run({ ...job, durationS: profile.durationS });
    const cpuAfter = processCpuMs(server.pid);
    const orders = measured.checkout?.orders ?? 0;
    const cpuMsPerOrder = cpuBefore !== undefined && cpuAfter !== undefined && orders > 0
      ? Math.round(((cpuAfter - cpuBefore) / orders) * 1000) / 1000
      : undefined;
    log(`ucp_checkout: ${measured.checkout?.ordersPerSecond} orders/s, ${cpuMsPerOrder ?? '?'} ms CPU per order (cart: ${cartCpuMsPerOrder ?? '?'})`);
    return { result: measured, ...(cpuMsPerOrder === undefined ? {} : { cpuMsPerOrder }), ...(cartCpuMsPerOrder === undefined ? {} : { cartCpuMsPerOrder }) };
  } finally {
    await server.close();
  }
}

process.exitCode = await main();
