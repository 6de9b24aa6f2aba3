import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AdminPageTiming } from './admin-pages.ts';
import type { CheckoutAudit } from './checkout.ts';
import type { EmbeddedFootprint } from './embedded-footprint.ts';
import type { ColdStart, ToolsListSize } from './footprint.ts';
import { HISTOGRAM_BOUNDS_MS } from './latency.ts';
import type { LoadResult } from './load-types.ts';

export type ScenarioResult = {
  name: string;
  label: string;
  butik?: LoadResult;
  baseline?: LoadResult;
  /** The same requests on a bare Fastify app with the same statement (products.get). */
  fastify?: LoadResult;
  /** Why the scenario did not run (a tool or endpoint another issue delivers). */
  notAvailable?: string;
};

export type Target = {
  name: string;
  target: string;
  measured: string;
  met: boolean | null;
  note?: string;
  /** What the ratio is made of, from the same run: each side's server CPU, or a size's parts. */
  behind?: string;
};

export type BenchResult = {
  meta: Record<string, unknown>;
  scenarios: ScenarioResult[];
  /** Cost ratios are "how many times the cost of"; throughput ratios are "times the req/s of". */
  ratios: Record<string, number | null>;
  halfRate?: { rate: number; butik: LoadResult; baseline?: LoadResult };
  oneClient?: { butik: LoadResult };
  checkout?: {
    result?: LoadResult;
    audit?: CheckoutAudit;
    notAvailable?: string;
    /** The same shoppers and fixture against the baseline server's cart.create and cart.checkout, audited alike. */
    baseline?: { result: LoadResult; audit: CheckoutAudit };
    /** The same load with every cart on one unlimited code, and with no code. */
    variants?: { hotDiscount: LoadResult; noDiscount: LoadResult };
  };
  /** UCP create + complete on a server with BUTIK_UCP_MODE=test, against cart.create + cart.checkout. */
  ucpCheckout?: {
    result?: LoadResult;
    /** Server CPU per order placed, and the same for cart.create + cart.checkout in the checkout run. */
    cpuMsPerOrder?: number;
    cartCpuMsPerOrder?: number;
    notAvailable?: string;
  };
  /** The embedded default (PGlite) with the demo shop and with the 20,000-product catalog. */
  embedded?: EmbeddedFootprint[];
  /** Each console page's server render time (bench/admin-pages.ts). */
  adminPages?: AdminPageTiming[];
  footprint?: { idleRssMb?: number; loadedRssMb?: number; loadS?: number } & Partial<ColdStart> & Partial<ToolsListSize>;
  targets: Target[];
  errors: string[];
};

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

export function ratio(numerator: LoadResult | undefined, denominator: LoadResult | undefined): number | null {
  if (!numerator || !denominator || denominator.rps === 0) return null;
  return round(numerator.rps / denominator.rps);
}

/** Orders per second of one checkout run as a multiple of another's. */
export function ordersRatio(numerator: LoadResult | undefined, denominator: LoadResult | undefined): number | null {
  const orders = numerator?.checkout?.ordersPerSecond;
  const baseline = denominator?.checkout?.ordersPerSecond;
  if (orders === undefined || !baseline) return null;
  return round(orders / baseline);
}

/** Server CPU time per order placed, from a checkout run's per-request figure. */
export function perOrder(run: LoadResult | undefined): number | undefined {
  const orders = run?.checkout?.orders ?? 0;
  if (run?.serverCpuMsPerRequest === undefined || orders === 0) return undefined;
  return Math.round(((run.serverCpuMsPerRequest * run.requests) / orders) * 1000) / 1000;
}

const cell = (r: LoadResult | undefined) => (r
  ? [String(r.rps), String(r.latency.p50), String(r.latency.p95), String(r.latency.p99), String(r.serverCpuMsPerRequest ?? '–')]
  : ['–', '–', '–', '–', '–']);

export function markdown(result: BenchResult): string {
  const lines = [
    `Products: ${String(result.meta.products)}; ${String(result.meta.durationS)} s per measurement, ${String(result.meta.connections)} connections; `
      + `${String(result.meta.cpus)} CPUs, load average ${String(result.meta.loadAverage)} at start, `
      + `${String(result.meta.busyPercentBeforeStart)} % of the CPU busy in the second before it`
      + `${result.meta.busyBeforeStart === true ? ' — THE MACHINE WAS BUSY: the figures below are not comparable with other runs' : ''}. `
      + 'CPU ms/req: CPU time of the server process per response (PostgreSQL and the load generator not included).',
    '',
    '| scenario | Butik req/s | p50 ms | p95 ms | p99 ms | CPU ms/req | baseline req/s | p50 ms | p95 ms | p99 ms | CPU ms/req | Butik ÷ baseline |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const s of result.scenarios) {
    if (s.notAvailable) {
      lines.push(`| ${s.label} | not available: ${s.notAvailable.replace(/\|/g, '\\|').slice(0, 120)} | | | | | | | | | | |`);
      continue;
    }
    const r = ratio(s.butik, s.baseline);
    lines.push(`| ${s.label} | ${cell(s.butik).join(' | ')} | ${cell(s.baseline).join(' | ')} | ${r === null ? '–' : `${r}×`} |`);
    if (s.fastify) {
      const f = ratio(s.butik, s.fastify);
      lines.push(`| ${s.label}: bare Fastify as the baseline | ${cell(s.butik).join(' | ')} | ${cell(s.fastify).join(' | ')} | ${f === null ? '–' : `${f}×`} |`);
    }
  }
  if (result.halfRate) {
    const h = result.halfRate;
    lines.push(`| search with q at ${h.rate} req/s (half the max) | ${cell(h.butik).join(' | ')} | ${cell(h.baseline).join(' | ')} | |`);
  }
  if (result.oneClient) lines.push(`| search with q, one connection | ${cell(result.oneClient.butik).join(' | ')} | | | | | | |`);
  const checkout = result.checkout;
  if (checkout?.result?.checkout) {
    const c = checkout.result.checkout;
    lines.push('', `Checkout, 50 concurrent clients: ${c.ordersPerSecond} orders/s (${c.orders} orders; cart.create + cart.checkout `
      + `${checkout.result.rps} req/s, p50 ${checkout.result.latency.p50} ms, p99 ${checkout.result.latency.p99} ms, `
      + `server CPU ${checkout.result.serverCpuMsPerRequest ?? '–'} ms/request); `
      + `${c.outOfStock} refused out_of_stock, ${c.discountRefused} refused discount_not_applicable, ${c.unexpected} unexpected.`);
    if (checkout.variants) {
      const { hotDiscount, noDiscount } = checkout.variants;
      lines.push(`Every cart on one discount code: ${hotDiscount.checkout?.ordersPerSecond ?? '–'} orders/s (p99 ${hotDiscount.latency.p99} ms); `
        + `no discount code: ${noDiscount.checkout?.ordersPerSecond ?? '–'} orders/s (p99 ${noDiscount.latency.p99} ms).`);
    }
    if (checkout.audit) {
      const a = checkout.audit;
      lines.push(`Audit: ${a.ordersInDatabase} orders in the database, discount used ${a.discountUsageCount} times by ${a.discountOrders} orders, `
        + `${a.soldOut} products sold out, ${a.violations.length === 0 ? 'no oversell' : `VIOLATIONS: ${a.violations.join('; ')}`}.`);
    }
    if (checkout.baseline?.result.checkout) {
      const b = checkout.baseline;
      const bc = b.result.checkout;
      lines.push(`Baseline (the same statements over plain pg, the same shoppers and fixture): ${bc?.ordersPerSecond ?? '–'} orders/s `
        + `(${bc?.orders ?? '–'} orders; p50 ${b.result.latency.p50} ms, p99 ${b.result.latency.p99} ms); its audit: `
        + `${b.audit.violations.length === 0 ? 'no oversell' : `VIOLATIONS: ${b.audit.violations.join('; ')}`}.`);
    }
  } else if (checkout?.notAvailable) {
    lines.push('', `Checkout: not available (${checkout.notAvailable}).`);
  }
  const ucp = result.ucpCheckout;
  if (ucp?.result?.checkout) {
    const c = ucp.result.checkout;
    lines.push('', `UCP checkout (create + complete), 50 concurrent platforms: ${c.ordersPerSecond} orders/s (${c.orders} orders; `
      + `p50 ${ucp.result.latency.p50} ms, p99 ${ucp.result.latency.p99} ms); server CPU ${ucp.cpuMsPerOrder ?? '–'} ms per order against `
      + `${ucp.cartCpuMsPerOrder ?? '–'} ms for cart.create + cart.checkout; ${c.outOfStock} refused for stock, ${c.unexpected} unexpected.`);
  } else if (ucp?.notAvailable) {
    lines.push('', `UCP checkout: not available (${ucp.notAvailable}).`);
  }
  lines.push(...embeddedTable(result));
  lines.push(...adminPagesTable(result));
  lines.push('', ...histogramTable(result));
  lines.push('', '| target | goal | measured | met | behind it, in this run |', '|---|---|---|---|---|');
  for (const t of result.targets) {
    lines.push(`| ${t.name} | ${t.target} | ${t.measured} | ${t.met === null ? 'not measured' : t.met ? 'yes' : 'no'}${t.note ? ` (${t.note})` : ''} | ${t.behind ?? ''} |`);
  }
  if (result.errors.length > 0) lines.push('', 'Errors:', ...result.errors.map((e) => `- ${e}`));
  return `${lines.join('\n')}\n`;
}

/** The embedded database's footprint beside the PostgreSQL process's. */
function embeddedTable(result: BenchResult): string[] {
  const f = result.footprint;
  const mb = (n: number | undefined) => (n === undefined ? '–' : String(n));
  const lines = [
    '', '| process | ready ms | idle RSS MB | RSS MB after load | load s | req/s under load |', '|---|---:|---:|---:|---:|---|',
    `| PostgreSQL, ${String(result.meta.products)} products | – | ${mb(f?.idleRssMb)} | ${mb(f?.loadedRssMb)} | ${mb(f?.loadS)} | the scenarios above |`,
  ];
  for (const e of result.embedded ?? []) {
    const rps = Object.entries(e.rps).map(([name, n]) => `${name} ${n}`).join(', ');
    lines.push(`| embedded, ${e.store} | ${e.readyMs} | ${mb(e.idleRssMb)} | ${mb(e.loadedRssMb)} | ${e.loadS} | ${rps} |`);
  }
  return lines;
}

/** The console's pages, one request at a time: what rendering each costs on this catalog. */
function adminPagesTable(result: BenchResult): string[] {
  if (!result.adminPages) return [];
  return [
    '', '| console page (signed-in owner) | status | p50 ms | p95 ms | max ms | KB |', '|---|---:|---:|---:|---:|---:|',
    ...result.adminPages.map((p) => `| ${p.label} (\`${p.path}\`) | ${p.status} | ${p.p50} | ${p.p95} | ${p.max} | ${Math.round(p.bytes / 102.4) / 10} |`),
  ];
}

/** Where each scenario's time went: the share of responses per latency bucket (to find the tail). */
function histogramTable(result: BenchResult): string[] {
  const rows: Array<[string, LoadResult | undefined]> = [
    ...result.scenarios.map((s): [string, LoadResult | undefined] => [`${s.label} (Butik)`, s.butik]),
    ['search with q at half the max rate', result.halfRate?.butik],
    ['search with q at half the max rate (baseline)', result.halfRate?.baseline],
    ['checkout requests', result.checkout?.result],
    ['UCP checkout requests', result.ucpCheckout?.result],
  ];
  const heading = [...HISTOGRAM_BOUNDS_MS.map((bound) => `≤ ${bound} ms`), `> ${HISTOGRAM_BOUNDS_MS.at(-1) ?? 0} ms`];
  const lines = [`| latency histogram | ${heading.join(' | ')} |`, `|---|${heading.map(() => '---:').join('|')}|`];
  for (const [label, run] of rows) {
    const counts = run?.latency.histogram;
    const total = counts?.reduce((sum, n) => sum + n, 0) ?? 0;
    if (!counts || total === 0) continue;
    lines.push(`| ${label} | ${counts.map((n) => `${Math.round((1000 * n) / total) / 10} %`).join(' | ')} |`);
  }
  return lines;
}

export function writeResult(dir: string, result: BenchResult): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'result.json'), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(join(dir, 'result.md'), markdown(result));
}
