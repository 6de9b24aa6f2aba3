import { TARGETS } from './profiles.ts';
import type { Profile } from './profiles.ts';
import { perOrder } from './report.ts';
import type { BenchResult, Target } from './report.ts';
import type { LoadResult } from './load-types.ts';

/** Every target of the run, each met, missed or not measured. */
export function targetsFor(result: BenchResult, profile: Profile): Target[] {
  const r = result.ratios;
  const checkout = result.checkout?.result?.checkout;
  const audit = result.checkout?.audit;
  const bareCheckout = result.checkout?.baseline?.result.checkout;
  const bareAudit = result.checkout?.baseline?.audit;
  const search = result.scenarios.find((s) => s.name === 'search_q')?.butik;
  const f = result.footprint;
  const ucp = result.ucpCheckout;
  const ucpVsCart = ucp?.cpuMsPerOrder !== undefined && ucp.cartCpuMsPerOrder ? Math.round((ucp.cpuMsPerOrder / ucp.cartCpuMsPerOrder) * 100) / 100 : null;
  const met = (value: number | null | undefined, ok: (v: number) => boolean) => (value === null || value === undefined ? null : ok(value));
  const fmt = (value: number | null | undefined, unit: string) => (value === null || value === undefined ? 'not measured' : `${value}${unit}`);
  const halfRate = pacedP99(result);
  const scenario = (name: string) => result.scenarios.find((s) => s.name === name);
  const get = scenario('products_get');
  const parts = f?.toolsListParts;
  const kb = (bytes: number) => `${Math.round(bytes / 102.4) / 10} KB`;
  const targets: Target[] = [
    { name: 'search req/s vs baseline', target: `≥ ${TARGETS.searchVsBaseline}×`, measured: fmt(r.searchVsBaseline, '×'), met: met(r.searchVsBaseline, (v) => v >= TARGETS.searchVsBaseline), behind: cpuBehind([['Butik', scenario('search_q')?.butik], ['baseline', scenario('search_q')?.baseline]]) },
    {
      name: 'search p99 at half the max rate vs the baseline paced alike',
      target: `≤ ${TARGETS.halfRateP99VsBaseline}×`,
      measured: halfRate ? `${halfRate.ratio}× (${halfRate.butik} ms against ${halfRate.baseline} ms)` : 'not measured',
      met: met(halfRate?.ratio, (v) => v <= TARGETS.halfRateP99VsBaseline),
    },
    {
      name: 'UCP catalog search req/s vs products.search over REST',
      target: `≥ ${TARGETS.ucpSearchVsRest}×`,
      measured: fmt(r.ucpSearchVsRest, '×'),
      met: met(r.ucpSearchVsRest, (v) => v >= TARGETS.ucpSearchVsRest),
      behind: cpuBehind([['UCP', scenario('ucp_search')?.butik], ['REST', scenario('search_q')?.butik]]),
    },
    { name: 'MCP call cost vs REST', target: `≤ ${TARGETS.mcpVsRest}×`, measured: fmt(r.mcpVsRest, '×'), met: met(r.mcpVsRest, (v) => v <= TARGETS.mcpVsRest), behind: cpuBehind([['MCP', scenario('mcp_search')?.butik], ['REST', scenario('search_q')?.butik]]) },
    {
      name: 'policy stage: a write no rule holds, policies in force vs none',
      target: `≤ ${TARGETS.policyStageCost}×`,
      measured: fmt(r.policyStageCost, '×'),
      met: met(r.policyStageCost, (v) => v <= TARGETS.policyStageCost),
      behind: cpuBehind([['policies', scenario('update_policed')?.butik], ['none', scenario('update_plain')?.butik]]),
    },
    { name: 'authenticated call cost vs anonymous', target: `≤ ${TARGETS.authVsAnon}×`, measured: fmt(r.authVsAnon, '×'), met: met(r.authVsAnon, (v) => v <= TARGETS.authVsAnon), behind: cpuBehind([['API key', scenario('products_get_auth')?.butik], ['anonymous', get?.butik]]) },
    {
      name: 'checkout orders/s vs the baseline, 50 clients',
      target: `≥ ${TARGETS.checkoutVsBaseline}×`,
      measured: `${fmt(r.checkoutVsBaseline, '×')} (${fmt(checkout?.ordersPerSecond, ' orders/s')} against ${fmt(bareCheckout?.ordersPerSecond, ' orders/s')})`,
      met: met(r.checkoutVsBaseline, (v) => v >= TARGETS.checkoutVsBaseline),
      behind: perOrderBehind(perOrder(result.checkout?.result), perOrder(result.checkout?.baseline?.result)),
    },
    { name: 'checkout oversell (Butik)', target: 'none', measured: audit ? `${audit.violations.length} violations` : 'not measured', met: audit ? audit.violations.length === 0 : null },
    { name: 'checkout oversell (baseline)', target: 'none', measured: bareAudit ? `${bareAudit.violations.length} violations` : 'not measured', met: bareAudit ? bareAudit.violations.length === 0 : null },
    {
      name: 'products.get req/s vs bare Fastify',
      target: `≥ ${TARGETS.getVsFastify}×`,
      measured: `${fmt(r.getVsFastify, '×')} (node:http: ${fmt(r.getVsBaseline, '×')}; Fastify vs node:http: ${fmt(r.fastifyVsBaseline, '×')})`,
      met: met(r.getVsFastify, (v) => v >= TARGETS.getVsFastify),
      behind: cpuBehind([['Butik', get?.butik], ['Fastify', get?.fastify], ['node:http', get?.baseline]]),
    },
    {
      name: 'cold start to ready (embedded, existing data)',
      target: `≤ ${TARGETS.coldStartMs} ms`,
      measured: fmt(f?.coldStartMs, ' ms'),
      met: met(f?.coldStartMs, (v) => v <= TARGETS.coldStartMs),
      behind: f?.coldStartMs !== undefined && f.bareEngineMs !== undefined && f.nodeAloneMs !== undefined
        ? `node alone ${f.nodeAloneMs} ms; node with the embedded engine alone opening the same data ${f.bareEngineMs} ms; the rest of Butik (its modules, the app, listening) ${f.coldStartMs - f.bareEngineMs} ms`
        : undefined,
    },
    { name: 'idle RSS (PostgreSQL)', target: `≤ ${TARGETS.idleRssMb} MB`, measured: fmt(f?.idleRssMb, ' MB'), met: met(f?.idleRssMb, (v) => v <= TARGETS.idleRssMb) },
    { name: `RSS after ${f?.loadS ?? '–'} s of load (PostgreSQL)`, target: `≤ ${TARGETS.loadedRssMb} MB`, measured: fmt(f?.loadedRssMb, ' MB'), met: met(f?.loadedRssMb, (v) => v <= TARGETS.loadedRssMb) },
    ...(result.embedded ?? []).flatMap((e): Target[] => [
      { name: `idle RSS (embedded, ${e.store})`, target: `≤ ${TARGETS.idleRssMb} MB`, measured: fmt(e.idleRssMb, ' MB'), met: met(e.idleRssMb, (v) => v <= TARGETS.idleRssMb) },
      { name: `RSS after ${e.loadS} s of load (embedded, ${e.store})`, target: `≤ ${TARGETS.loadedRssMb} MB`, measured: fmt(e.loadedRssMb, ' MB'), met: met(e.loadedRssMb, (v) => v <= TARGETS.loadedRssMb) },
    ]),
    {
      name: 'UCP checkout CPU per order vs cart.create + cart.checkout',
      target: `≤ ${TARGETS.ucpVsCart}×`,
      measured: fmt(ucpVsCart, '×'),
      met: met(ucpVsCart, (v) => v <= TARGETS.ucpVsCart),
      behind: ucp?.cpuMsPerOrder !== undefined && ucp.cartCpuMsPerOrder !== undefined ? `server CPU per order: UCP ${ucp.cpuMsPerOrder} ms, cart ${ucp.cartCpuMsPerOrder} ms` : undefined,
    },
    { name: 'MCP tools/list, every tool (UCP off)', target: `≤ ${TARGETS.toolsListKb} KB`, measured: fmt(f?.toolsListBytes === undefined ? undefined : Math.round(f.toolsListBytes / 102.4) / 10, ' KB'), met: met(f?.toolsListBytes, (v) => v <= TARGETS.toolsListKb * 1024),
      behind: parts ? `output schemas ${kb(parts.outputSchemas)}, input schemas ${kb(parts.inputSchemas)}, descriptions ${kb(parts.descriptions)}` : undefined },
  ];
  for (const page of result.adminPages ?? []) {
    targets.push({
      name: `console page ${page.label}, p95`, target: `≤ ${TARGETS.adminPageMs} ms`,
      measured: page.status === 200 ? `${page.p95} ms` : `answered ${page.status}`, met: page.status === 200 && page.p95 <= TARGETS.adminPageMs,
    });
  }
  if (result.meta.busyBeforeStart === true) {
    for (const target of targets) target.note = 'machine busy before the run';
  }
  if (profile.name === 'scale') {
    const alone = result.oneClient?.butik.latency.p95;
    targets.push(
      { name: `search p95 at ${profile.products} products, one client`, target: `≤ ${TARGETS.scaleSearchP95Ms} ms`, measured: fmt(alone, ' ms'), met: met(alone, (v) => v <= TARGETS.scaleSearchP95Ms) },
      { name: `search p95 at ${profile.products} products, ${profile.connections} connections (saturated)`, target: `≤ ${TARGETS.scaleSearchP95Ms} ms`, measured: fmt(search?.latency.p95, ' ms'), met: met(search?.latency.p95, (v) => v <= TARGETS.scaleSearchP95Ms) },
    );
  }
  return targets;
}

/** Each side's server CPU time per request, and the first's as a multiple of the second's. */
function cpuBehind(sides: [string, LoadResult | undefined][]): string | undefined {
  const measured = sides.flatMap(([label, run]) => (run?.serverCpuMsPerRequest === undefined ? [] : [[label, run.serverCpuMsPerRequest] as const]));
  if (measured.length < 2) return undefined;
  const [first, second] = measured;
  const times = first && second && second[1] > 0 ? ` (${Math.round((first[1] / second[1]) * 100) / 100}×)` : '';
  return `server CPU per request: ${measured.map(([label, ms]) => `${label} ${ms} ms`).join(', ')}${times}`;
}

/** The same for a checkout: each server's CPU per order placed. */
function perOrderBehind(butik: number | undefined, baseline: number | undefined): string | undefined {
  if (butik === undefined || baseline === undefined || baseline === 0) return undefined;
  return `server CPU per order: Butik ${butik} ms, baseline ${baseline} ms (${Math.round((butik / baseline) * 100) / 100}×)`;
}

/** Butik's and the baseline's p99 at the same pace, and their ratio. */
function pacedP99(result: BenchResult): { butik: number; baseline: number; ratio: number } | undefined {
  const butik = result.halfRate?.butik.latency.p99;
  const baseline = result.halfRate?.baseline?.latency.p99;
  if (butik === undefined || baseline === undefined || baseline === 0) return undefined;
  return { butik, baseline, ratio: Math.round((butik / baseline) * 100) / 100 };
}
