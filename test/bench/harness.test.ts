import { describe, expect, it } from 'vitest';
import { CATALOG, PAGE_SIZE, SEARCH_TERMS } from '../../bench/catalog.ts';
import { summarizeLatency } from '../../bench/latency.ts';
import type { LoadResult } from '../../bench/load-types.ts';
import { TARGETS, profileFor } from '../../bench/profiles.ts';
import { markdown, ordersRatio, ratio } from '../../bench/report.ts';
import { targetsFor } from '../../bench/targets.ts';

/** The benchmark harness's own logic; no timing happens in npm test. */
const result = (rps: number): LoadResult => ({
  requests: rps * 10, durationS: 10, rps, statuses: { 200: rps * 10 }, errors: 0, timeouts: 0,
  latency: { p50: 1, p95: 2, p99: 3, mean: 1.2, max: 9 },
});

describe('bench harness', () => {
  it('takes nearest-rank percentiles of latency samples and counts them into the histogram buckets', () => {
    const samples = Array.from({ length: 100 }, (_, i) => i + 1);
    // Buckets ≤ 1, 2, 5, 10, 20, 50, 100, 200 ms and slower.
    expect(summarizeLatency(samples)).toEqual({
      p50: 50, p95: 95, p99: 99, mean: 50.5, max: 100, histogram: [1, 1, 3, 5, 10, 30, 50, 0, 0],
    });
    expect(summarizeLatency([250, 0.5])).toMatchObject({ histogram: [1, 0, 0, 0, 0, 0, 0, 0, 1] });
    expect(summarizeLatency([])).toEqual({ p50: 0, p95: 0, p99: 0, mean: 0, max: 0, histogram: [0, 0, 0, 0, 0, 0, 0, 0, 0] });
  });

  it('knows its profiles: --quick for CI, --scale for a million products, each in a database of its own', () => {
    expect(profileFor({ quick: true })).toMatchObject({ name: 'quick', products: 20_000, database: 'butik_bench_quick', checkout: true });
    expect(profileFor({})).toMatchObject({ name: 'standard', products: 100_000, database: 'butik_bench' });
    expect(profileFor({ scale: true })).toMatchObject({ name: 'scale', products: 1_000_000, orders: 1_000_000, ordersList: true });
    expect(profileFor({ products: '5000' })).toMatchObject({ products: 5000, database: 'butik_bench_5000' });
    expect(() => profileFor({ quick: true, scale: true })).toThrow(/exclude/);
    expect(() => profileFor({ duration: '0' })).toThrow(/positive/);
  });

  it('reports ratios, scenarios that are not available, and targets met or missed', () => {
    expect(ratio(result(700), result(1000))).toBe(0.7);
    expect(ratio(result(700), undefined)).toBeNull();
    const text = markdown({
      meta: { products: 20_000, durationS: 4, connections: 10, cpus: 2, loadAverage: '0.1 0.1 0.1' },
      scenarios: [
        { name: 'search_q', label: 'products.search with q', butik: result(700), baseline: result(1000) },
        { name: 'mcp_search', label: 'MCP tools/call products.search', notAvailable: '/api/mcp: 404' },
      ],
      ratios: { searchVsBaseline: 0.7 },
      targets: [{ name: 'search req/s vs baseline', target: `≥ ${TARGETS.searchVsBaseline}×`, measured: '0.7×', met: true }],
      errors: [],
    });
    expect(text).toContain('| products.search with q | 700 | 1 | 2 | 3 | – | 1000 | 1 | 2 | 3 | – | 0.7× |');
    expect(text).toContain('| MCP tools/call products.search | not available: /api/mcp: 404 |');
    expect(text).toContain('| search req/s vs baseline | ≥ 0.7× | 0.7× | yes |');
  });

  it('reports the UCP checkout beside the cart checkout it is measured against', () => {
    const ucp = { ...result(50), checkout: { orders: 400, ordersPerSecond: 100, discounted: 0, outOfStock: 3, discountRefused: 0, unexpected: 0, unexpectedSamples: [] } };
    const text = markdown({
      meta: { products: 20_000, durationS: 4, connections: 10, cpus: 2, loadAverage: '0.1 0.1 0.1' },
      scenarios: [], ratios: {}, targets: [], errors: [],
      ucpCheckout: { result: ucp, cpuMsPerOrder: 8, cartCpuMsPerOrder: 6 },
    });
    expect(text).toContain('UCP checkout (create + complete), 50 concurrent platforms: 100 orders/s (400 orders; p50 1 ms, p99 3 ms); '
      + 'server CPU 8 ms per order against 6 ms for cart.create + cart.checkout; 3 refused for stock, 0 unexpected.');
    expect(TARGETS.ucpVsCart).toBe(3);
  });

  it('judges the paced p99, products.get and the embedded footprint against what the same run measured', () => {
    const slower = { ...result(30), latency: { ...result(30).latency, p99: 30 } };
    const bench = {
      meta: { products: 20_000, durationS: 4, connections: 10, cpus: 2, loadAverage: '0.1 0.1 0.1' },
      scenarios: [{
        name: 'products_get', label: 'products.get (anonymous)',
        butik: { ...result(900), serverCpuMsPerRequest: 0.15 }, baseline: { ...result(1500), serverCpuMsPerRequest: 0.06 }, fastify: { ...result(1000), serverCpuMsPerRequest: 0.1 },
      }],
      ratios: { getVsBaseline: 0.6, getVsFastify: 0.9, fastifyVsBaseline: 0.67 },
      halfRate: { rate: 30, butik: slower, baseline: { ...slower, latency: { ...slower.latency, p99: 24 } } },
      embedded: [{ store: 'demo shop', readyMs: 800, idleRssMb: 140, loadedRssMb: 260, loadS: 8, rps: { search_q: 400 } }],
      footprint: { toolsListBytes: 81_500, toolsListParts: { outputSchemas: 24_576, inputSchemas: 29_900, descriptions: 13_000 } },
      targets: [], errors: [],
    };
    const targets = targetsFor(bench, profileFor({ quick: true }));
    expect(targets).toContainEqual(expect.objectContaining({ name: 'search p99 at half the max rate vs the baseline paced alike', measured: '1.25× (30 ms against 24 ms)', met: true }));
    // What a ratio is made of comes from the same run: each side's CPU per request, or what a size is made of.
    expect(targets).toContainEqual(expect.objectContaining({
      name: 'products.get req/s vs bare Fastify', met: true, behind: 'server CPU per request: Butik 0.15 ms, Fastify 0.1 ms, node:http 0.06 ms (1.5×)',
    }));
    expect(targets).toContainEqual(expect.objectContaining({
      name: 'MCP tools/list, every tool (UCP off)', measured: '79.6 KB', met: false, behind: 'output schemas 24 KB, input schemas 29.2 KB, descriptions 12.7 KB',
    }));
    expect(targets).toContainEqual(expect.objectContaining({ name: 'idle RSS (embedded, demo shop)', measured: '140 MB', met: true }));
    expect(targets).toContainEqual(expect.objectContaining({ name: 'RSS after 8 s of load (embedded, demo shop)', measured: '260 MB', met: false }));
    const text = markdown({ ...bench, targets });
    expect(text).toContain('| embedded, demo shop | 800 | 140 | 260 | 8 | search_q 400 |');
    expect(text).toContain('| products.get (anonymous): bare Fastify as the baseline | 900 | 1 | 2 | 3 | 0.15 | 1000 | 1 | 2 | 3 | 0.1 | 0.9× |');
    expect(text).toContain('| MCP tools/list, every tool (UCP off) | ≤ 40 KB | 79.6 KB | no | output schemas 24 KB, input schemas 29.2 KB, descriptions 12.7 KB |');
  });

  it('judges checkout as orders per second against the baseline run by the same shoppers, and audits both for oversell', () => {
    const outcome = (orders: number) => ({ orders: orders * 10, ordersPerSecond: orders, discounted: 25, outOfStock: 0, discountRefused: 0, unexpected: 0, unexpectedSamples: [] });
    const butik = { ...result(100), serverCpuMsPerRequest: 2, checkout: outcome(45) };
    const baseline = { ...result(120), serverCpuMsPerRequest: 1, checkout: outcome(50) };
    const clean = { ordersInDatabase: 450, discountUsageCount: 25, discountOrders: 25, soldOut: 5, violations: [] };
    expect(ordersRatio(butik, baseline)).toBe(0.9);
    const bench = {
      meta: { products: 20_000, durationS: 4, connections: 10, cpus: 2, loadAverage: '0.1 0.1 0.1' },
      scenarios: [], ratios: { checkoutVsBaseline: ordersRatio(butik, baseline) },
      checkout: { result: butik, audit: clean, baseline: { result: baseline, audit: { ...clean, violations: ['product p1 has stock -1'] } } },
      targets: [], errors: [],
    };
    const targets = targetsFor(bench, profileFor({ quick: true }));
    expect(targets).toContainEqual(expect.objectContaining({
      name: 'checkout orders/s vs the baseline, 50 clients', measured: '0.9× (45 orders/s against 50 orders/s)', met: true,
      behind: 'server CPU per order: Butik 4.444 ms, baseline 2.4 ms (1.85×)',
    }));
    expect(targets).toContainEqual(expect.objectContaining({ name: 'checkout oversell (Butik)', met: true }));
    expect(targets).toContainEqual(expect.objectContaining({ name: 'checkout oversell (baseline)', measured: '1 violations', met: false }));
    expect(markdown({ ...bench, targets })).toContain('Baseline (the same statements over plain pg, the same shoppers and fixture): 50 orders/s '
      + '(500 orders; p50 1 ms, p99 3 ms); its audit: VIOLATIONS: product p1 has stock -1.');
  });

  it('generates a catalog in which all its search terms occur', () => {
    const catalog = CATALOG;
    expect(PAGE_SIZE).toBe(20);
    expect(catalog.product(0)).toEqual(catalog.product(0));
    const text = Array.from({ length: 3000 }, (_, i) => catalog.product(i))
      .map((p) => `${p.name} ${p.brand} ${p.description}`.toLowerCase()).join('\n');
    for (const term of SEARCH_TERMS) {
      for (const word of term.split(' ')) expect(text, term).toContain(word);
    }
  });
});
