/** How big and how long a run is. */
export type Profile = {
  name: 'quick' | 'standard' | 'scale';
  /** A database per profile, so a CI --quick run never replaces the 100k catalog of a full one. */
  database: string;
  products: number;
  orders: number;
  durationS: number;
  warmupS: number;
  connections: number;
  checkout: boolean;
  ordersList: boolean;
};

/** The targets bench/README.md reports against (ratios from one run on one machine). */
export const TARGETS = {
  searchVsBaseline: 0.7,
  /** Butik's p99 at half its max rate, against the node:http baseline paced the same in the same run. */
  halfRateP99VsBaseline: 1.5,
  mcpVsRest: 1.3,
  authVsAnon: 1.1,
  /** A write no policy rule holds, with a document in force, against the same write without one (same run). */
  policyStageCost: 1.05,
  /** Checkout orders/s against the baseline running the same statements for the same shoppers, same run. */
  checkoutVsBaseline: 0.8,
  scaleSearchP95Ms: 20,
  /** products.get req/s against a bare Fastify app with the same statement. */
  getVsFastify: 0.9,
  coldStartMs: 1_000,
  idleRssMb: 150,
  loadedRssMb: 250,
  toolsListKb: 40,
  /** Server CPU per UCP order (create + complete) at most this many times cart.create + cart.checkout's. */
  ucpVsCart: 3,
  /** Every console page, rendered for a signed-in owner on the bench catalog (p95 of sequential requests). */
  adminPageMs: 100,
  /** UCP catalog search (POST /catalog/search) req/s against products.search over REST, the same searches, same run. */
  ucpSearchVsRest: 0.8,
};

const PROFILES: Record<Profile['name'], Profile> = {
  // CI proves the harness in well under three minutes, seeding included.
  quick: { name: 'quick', database: 'butik_bench_quick', products: 20_000, orders: 0, durationS: 4, warmupS: 1, connections: 10, checkout: true, ordersList: false },
  // 10,000 orders give the console's order list, overview and order page something to page through.
  standard: { name: 'standard', database: 'butik_bench', products: 100_000, orders: 10_000, durationS: 10, warmupS: 2, connections: 10, checkout: true, ordersList: false },
  scale: { name: 'scale', database: 'butik_bench_scale', products: 1_000_000, orders: 1_000_000, durationS: 10, warmupS: 3, connections: 10, checkout: false, ordersList: true },
};

export function profileFor(flags: { quick?: boolean; scale?: boolean; duration?: string; connections?: string; products?: string }): Profile {
  if (flags.quick && flags.scale) throw new Error('--quick and --scale exclude each other');
  const base = PROFILES[flags.quick ? 'quick' : flags.scale ? 'scale' : 'standard'];
  const number = (value: string | undefined, fallback: number, name: string) => {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
    return n;
  };
  const products = number(flags.products, base.products, 'products');
  return {
    ...base,
    products,
    // Another catalog size is another database, so the reuse check stays meaningful.
    database: products === base.products ? base.database : `${base.database}_${products}`,
    durationS: number(flags.duration, base.durationS, 'duration'),
    connections: number(flags.connections, base.connections, 'connections'),
  };
}
