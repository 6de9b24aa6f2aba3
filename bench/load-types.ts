/** What bench/run.ts asks of the load-generating child process (bench/load-worker.ts), and what it gets back. */

export type HttpRequest = { method: 'POST'; path: string; headers: Record<string, string>; body: string };

/** A fixed list of requests, cycled by every connection; autocannon does the work. */
export type RequestsJob = {
  kind: 'requests';
  url: string;
  requests: HttpRequest[];
  connections: number;
  durationS: number;
  /** Requests per second over all connections; unset: as fast as the server answers. */
  rate?: number;
};

/** Virtual shoppers: each creates a cart with one random product (some with the discount code) and checks it out. */
export type CheckoutJob = {
  kind: 'checkout';
  url: string;
  key: string;
  slugs: string[];
  discountCode: string;
  /** Every n-th cart carries the discount code; none does without it. */
  discountEvery?: number;
  clients: number;
  durationS: number;
};

/** Virtual platforms buying through UCP: each creates a checkout session ready to complete, then completes it. */
export type UcpCheckoutJob = {
  kind: 'ucp_checkout';
  url: string;
  slugs: string[];
  clients: number;
  durationS: number;
};

export type LoadJob = RequestsJob | CheckoutJob | UcpCheckoutJob;

export type Latency = {
  p50: number; p95: number; p99: number; mean: number; max: number;
  /** Responses per bucket of HISTOGRAM_BOUNDS_MS (upper bounds, the last bucket open): where the tail lies. */
  histogram?: number[];
};

export type LoadResult = {
  requests: number;
  durationS: number;
  rps: number;
  latency: Latency;
  /** Responses by status code. */
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  checkout?: CheckoutOutcome;
  /** CPU time the server process spent per response, in ms (Linux); filled in by bench/run.ts. */
  serverCpuMsPerRequest?: number;
};

export type CheckoutOutcome = {
  /** Orders placed. */
  orders: number;
  ordersPerSecond: number;
  /** Carts that used the discount code at checkout. */
  discounted: number;
  /** Expected refusals once stock or the discount's usage limit runs out. */
  outOfStock: number;
  discountRefused: number;
  /** Anything else that was not a 2xx: a real error. */
  unexpected: number;
  unexpectedSamples: string[];
};

export type WorkerMessage = { id: number; job: LoadJob };
export type WorkerReply = { id: number; result: LoadResult } | { id: number; error: string };
