import type { Latency, LoadResult } from './load-types.ts';

/** Upper bounds of the latency histogram's buckets in ms; one more bucket holds everything slower. */
export const HISTOGRAM_BOUNDS_MS = [1, 2, 5, 10, 20, 50, 100, 200] as const;

function histogram(sorted: Float64Array): number[] {
  const counts = new Array<number>(HISTOGRAM_BOUNDS_MS.length + 1).fill(0);
  for (const sample of sorted) {
    const bucket = HISTOGRAM_BOUNDS_MS.findIndex((bound) => sample <= bound);
    const index = bucket === -1 ? HISTOGRAM_BOUNDS_MS.length : bucket;
    counts[index] = (counts[index] ?? 0) + 1;
  }
  return counts;
}

/** Percentiles (nearest rank) of latency samples in milliseconds, and their histogram. */
export function summarizeLatency(samples: number[]): Latency {
  if (samples.length === 0) return { p50: 0, p95: 0, p99: 0, mean: 0, max: 0, histogram: histogram(new Float64Array()) };
  const sorted = Float64Array.from(samples).sort();
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? 0;
  const round = (ms: number) => Math.round(ms * 100) / 100;
  let sum = 0;
  for (const sample of sorted) sum += sample;
  return {
    p50: round(at(0.5)),
    p95: round(at(0.95)),
    p99: round(at(0.99)),
    mean: round(sum / sorted.length),
    max: round(sorted[sorted.length - 1] ?? 0),
    histogram: histogram(sorted),
  };
}

/**
 * Two measurements of one scenario as one: counts add up, rates and CPU per request are over the whole time,
 * percentiles are the request-weighted mean of the two (close when the runs are alike, as they are here).
 */
export function mergeRuns(a: LoadResult, b: LoadResult): LoadResult {
  const requests = a.requests + b.requests;
  const durationS = a.durationS + b.durationS;
  const weigh = (x: number, y: number) => (requests === 0 ? 0 : Math.round(((x * a.requests + y * b.requests) / requests) * 100) / 100);
  const statuses: Record<string, number> = { ...a.statuses };
  for (const [status, n] of Object.entries(b.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
  const cpu = a.serverCpuMsPerRequest !== undefined && b.serverCpuMsPerRequest !== undefined
    ? Math.round(weigh(a.serverCpuMsPerRequest * 1000, b.serverCpuMsPerRequest * 1000)) / 1000
    : undefined;
  return {
    requests,
    durationS,
    rps: durationS === 0 ? 0 : Math.round(requests / durationS),
    latency: {
      p50: weigh(a.latency.p50, b.latency.p50),
      p95: weigh(a.latency.p95, b.latency.p95),
      p99: weigh(a.latency.p99, b.latency.p99),
      mean: weigh(a.latency.mean, b.latency.mean),
      max: Math.max(a.latency.max, b.latency.max),
      ...(a.latency.histogram && b.latency.histogram
        ? { histogram: a.latency.histogram.map((count, i) => count + (b.latency.histogram?.[i] ?? 0)) }
        : {}),
    },
    statuses,
    errors: a.errors + b.errors,
    timeouts: a.timeouts + b.timeouts,
    ...(cpu !== undefined ? { serverCpuMsPerRequest: cpu } : {}),
  };
}
