import autocannon from 'autocannon';
import { z } from 'zod';
import { summarizeLatency } from './latency.ts';
import type { CheckoutJob, CheckoutOutcome, LoadJob, LoadResult, RequestsJob, UcpCheckoutJob, WorkerMessage, WorkerReply } from './load-types.ts';

/**
 * The load generator, in a process of its own (bench/load.ts forks it) so that on a small machine it competes
 * with the server for cores, not for one event loop.
 */

function runRequests(job: RequestsJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const samples: number[] = [];
    const statuses: Record<string, number> = {};
    const instance = autocannon({
      url: job.url,
      connections: job.connections,
      duration: job.durationS,
      ...(job.rate ? { overallRate: job.rate } : {}),
      requests: job.requests.map((request) => ({ ...request })),
    }, (error, result) => {
      if (error) return reject(error);
      resolve({
        requests: samples.length,
        durationS: result.duration,
        rps: Math.round(samples.length / result.duration),
        latency: summarizeLatency(samples),
        statuses,
        errors: result.errors,
        timeouts: result.timeouts,
      });
    });
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      samples.push(responseTime);
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    });
  });
}

const Created = z.object({ ok: z.literal(true), result: z.object({ cartId: z.string() }) });
const Problem = z.object({ code: z.string(), reason: z.string().optional() });

type Response = { status: number; body: unknown; ms: number };

async function postWith(url: string, headers: Record<string, string>, body: unknown): Promise<Response> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const parsed: unknown = await response.json();
  return { status: response.status, body: parsed, ms: performance.now() - started };
}

/** Why a shopper got no order: the refusals a full shelf or a used-up code explain, or something unexpected. */
type Refusal = 'outOfStock' | 'discountRefused' | 'unexpected';

/**
 * One shopper's attempt to buy: `send` makes and records each request; the attempt ends in an order (and says
 * whether it used the discount code) or in the response that refused it.
 */
type Purchase = (n: number, send: (url: string, headers: Record<string, string>, body: unknown) => Promise<Response>)
  => Promise<{ ordered: true; discounted: boolean } | { ordered: false; refusal: Response }>;

/** `clients` shoppers buying in a loop for `durationS`, each purchase numbered; orders, refusals and latencies counted. */
async function runShoppers(job: { clients: number; durationS: number }, purchase: Purchase, classify: (response: Response) => Refusal): Promise<LoadResult> {
  const samples: number[] = [];
  const statuses: Record<string, number> = {};
  const outcome: CheckoutOutcome = {
    orders: 0, ordersPerSecond: 0, discounted: 0, outOfStock: 0, discountRefused: 0, unexpected: 0, unexpectedSamples: [],
  };
  let errors = 0;
  let next = 0;
  const send = async (url: string, headers: Record<string, string>, body: unknown) => {
    const response = await postWith(url, headers, body);
    samples.push(response.ms);
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    return response;
  };
  const started = performance.now();
  const end = started + job.durationS * 1000;
  const shopper = async () => {
    while (performance.now() < end) {
      try {
        const result = await purchase(next++, send);
        if (result.ordered) {
          outcome.orders += 1;
          if (result.discounted) outcome.discounted += 1;
          continue;
        }
        const refusal = classify(result.refusal);
        outcome[refusal] += 1;
        if (refusal === 'unexpected' && outcome.unexpectedSamples.length < 5) {
          outcome.unexpectedSamples.push(`${result.refusal.status} ${JSON.stringify(result.refusal.body).slice(0, 300)}`);
        }
      } catch {
        errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: job.clients }, shopper));
  const durationS = (performance.now() - started) / 1000;
  outcome.ordersPerSecond = Math.round(outcome.orders / durationS);
  return {
    requests: samples.length,
    durationS: Math.round(durationS * 10) / 10,
    rps: Math.round(samples.length / durationS),
    latency: summarizeLatency(samples),
    statuses,
    errors,
    timeouts: 0,
    checkout: outcome,
  };
}

/** A multiplicative hash spreads consecutive shoppers over the products. */
const productFor = (slugs: readonly string[], n: number) => slugs[(n * 2654435761) % slugs.length] ?? '';

/** 50 shoppers by default, each: cart.create with one product (every n-th with the discount code), then cart.checkout. */
function runCheckout(job: CheckoutJob): Promise<LoadResult> {
  const auth = { authorization: `Bearer ${job.key}` };
  return runShoppers(job, async (n, send) => {
    const discounted = job.discountEvery !== undefined && n % job.discountEvery === 0;
    const created = await send(`${job.url}/api/v1/tools/cart.create`, auth, {
      items: [{ slug: productFor(job.slugs, n), quantity: 1 }], ...(discounted ? { discountCode: job.discountCode } : {}),
    });
    const cart = Created.safeParse(created.body);
    if (!cart.success) return { ordered: false, refusal: created };
    const checkout = await send(`${job.url}/api/v1/tools/cart.checkout`, auth, {
      cartId: cart.data.result.cartId,
      email: `kunde${n}@example.dk`,
      shipping: { name: `Kunde ${n}`, address: 'Vestergade 1', zip: '8000', city: 'Aarhus' },
      paymentMethod: 'card',
    });
    return checkout.status === 200 ? { ordered: true, discounted } : { ordered: false, refusal: checkout };
  }, (response) => {
    const problem = Problem.safeParse(response.body);
    const code = problem.success ? problem.data.code : 'unparsable';
    if (response.status === 422 && code === 'out_of_stock') return 'outOfStock';
    if (response.status === 422 && code === 'discount_not_applicable') return 'discountRefused';
    return 'unexpected';
  });
}

const Session = z.object({ id: z.string(), status: z.literal('ready_for_complete') });
const UcpError = z.object({ code: z.string(), detail: z.string() });
/** A session created while its last unit went to another platform's completion: open, with an out_of_stock message. */
const SessionOutOfStock = z.object({ status: z.literal('incomplete'), messages: z.array(z.object({ code: z.string() })) })
  .refine((session) => session.messages.some((message) => message.code === 'out_of_stock'));

/**
 * UCP shoppers: create a checkout session that ships to a Danish address with the standard option chosen (ready to
 * complete in one call), then complete it with the mock handler: two requests per order, like cart.create + cart.checkout.
 */
function runUcpCheckout(job: UcpCheckoutJob): Promise<LoadResult> {
  // The platform profile is the shop's own discovery document: a loopback URL test mode may fetch, with capabilities.
  // The shoppers speak 2026-01-11, whose refusals (an HTTP error with the samples' code) the classifier below reads.
  const agent = { 'ucp-agent': `profile="${job.url}/.well-known/ucp";version="2026-01-11"` };
  return runShoppers(job, async (n, send) => {
    const created = await send(`${job.url}/checkout-sessions`, agent, {
      line_items: [{ item: { id: productFor(job.slugs, n) }, quantity: 1 }],
      currency: 'DKK',
      payment: {},
      buyer: { email: `kunde${n}@example.dk`, full_name: `Kunde ${n}` },
      fulfillment: {
        methods: [{
          type: 'shipping',
          destinations: [{ id: 'home', street_address: 'Vestergade 1', address_locality: 'Aarhus', postal_code: '8000', address_country: 'DK' }],
          selected_destination_id: 'home',
          groups: [{ selected_option_id: 'standard' }],
        }],
      },
    });
    const session = Session.safeParse(created.body);
    if (created.status !== 201 || !session.success) return { ordered: false, refusal: created };
    const completed = await send(`${job.url}/checkout-sessions/${session.data.id}/complete`, agent, {
      payment_data: {
        id: 'card', handler_id: 'mock_payment_handler', type: 'card', brand: 'Visa', last_digits: '4242',
        credential: { type: 'token', token: 'success_token' },
      },
    });
    return completed.status === 200 ? { ordered: true, discounted: false } : { ordered: false, refusal: completed };
  }, (response) => {
    const error = UcpError.safeParse(response.body);
    const stock = error.success
      ? error.data.code === 'OUT_OF_STOCK' || error.data.detail.startsWith('Insufficient stock')
      : SessionOutOfStock.safeParse(response.body).success;
    return stock ? 'outOfStock' : 'unexpected';
  });
}

function run(job: LoadJob): Promise<LoadResult> {
  switch (job.kind) {
    case 'requests':
      return runRequests(job);
    case 'checkout':
      return runCheckout(job);
    case 'ucp_checkout':
      return runUcpCheckout(job);
  }
}

process.on('message', (message: WorkerMessage) => {
  run(message.job).then(
    (result) => process.send?.({ id: message.id, result } satisfies WorkerReply),
    (error: unknown) => process.send?.({ id: message.id, error: error instanceof Error ? error.message : String(error) } satisfies WorkerReply),
  );
});
