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

async function post(url: string, key: string, body: unknown): Promise<Response> {
  return postWith(url, { authorization: `Bearer ${key}` }, body);
}

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

/** 50 shoppers by default, each: cart.create with one product (every n-th with the discount code), then cart.checkout. */
async function runCheckout(job: CheckoutJob): Promise<LoadResult> {
  const samples: number[] = [];
  const statuses: Record<string, number> = {};
  const outcome: CheckoutOutcome = {
    orders: 0, ordersPerSecond: 0, discounted: 0, outOfStock: 0, discountRefused: 0, unexpected: 0, unexpectedSamples: [],
  };
  let errors = 0;
  let next = 0;
  const record = (response: Response) => {
    samples.push(response.ms);
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  };
  const refused = (response: Response) => {
    const problem = Problem.safeParse(response.body);
    const code = problem.success ? problem.data.code : 'unparsable';
    if (response.status === 422 && code === 'out_of_stock') outcome.outOfStock += 1;
    else if (response.status === 422 && code === 'discount_not_applicable') outcome.discountRefused += 1;
    else {
      outcome.unexpected += 1;
      if (outcome.unexpectedSamples.length < 5) outcome.unexpectedSamples.push(`${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
    }
  };
  const started = performance.now();
  const end = started + job.durationS * 1000;
  const shopper = async () => {
    while (performance.now() < end) {
      const n = next++;
      // A multiplicative hash spreads consecutive shoppers over the products.
      const slug = job.slugs[(n * 2654435761) % job.slugs.length] ?? '';
      const discounted = n % job.discountEvery === 0;
      try {
        const created = await post(`${job.url}/api/v1/tools/cart.create`, job.key, {
          items: [{ slug, quantity: 1 }], ...(discounted ? { discountCode: job.discountCode } : {}),
        });
        record(created);
        const cart = Created.safeParse(created.body);
        if (!cart.success) { refused(created); continue; }
        const checkout = await post(`${job.url}/api/v1/tools/cart.checkout`, job.key, {
          cartId: cart.data.result.cartId,
          email: `kunde${n}@example.dk`,
          shipping: { name: `Kunde ${n}`, address: 'Vestergade 1', zip: '8000', city: 'Aarhus' },
          paymentMethod: 'card',
        });
        record(checkout);
        if (checkout.status !== 200) { refused(checkout); continue; }
        outcome.orders += 1;
        if (discounted) outcome.discounted += 1;
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

const Session = z.object({ id: z.string(), status: z.literal('ready_for_complete') });
const UcpError = z.object({ code: z.string() });

/**
 * UCP shoppers: create a checkout session that ships to a Danish address with the standard option chosen (ready to
 * complete in one call), then complete it with the mock handler: two requests per order, like cart.create + cart.checkout.
 */
async function runUcpCheckout(job: UcpCheckoutJob): Promise<LoadResult> {
  const samples: number[] = [];
  const statuses: Record<string, number> = {};
  const outcome: CheckoutOutcome = {
    orders: 0, ordersPerSecond: 0, discounted: 0, outOfStock: 0, discountRefused: 0, unexpected: 0, unexpectedSamples: [],
  };
  // The platform profile is the shop's own discovery document: a loopback URL test mode may fetch, with capabilities.
  const headers = { 'ucp-agent': `profile="${job.url}/.well-known/ucp"` };
  let errors = 0;
  let next = 0;
  const record = (response: Response) => {
    samples.push(response.ms);
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  };
  const refused = (response: Response) => {
    const code = UcpError.safeParse(response.body);
    if (code.success && (code.data.code === 'OUT_OF_STOCK' || JSON.stringify(response.body).includes('Insufficient stock'))) outcome.outOfStock += 1;
    else {
      outcome.unexpected += 1;
      if (outcome.unexpectedSamples.length < 5) outcome.unexpectedSamples.push(`${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
    }
  };
  const started = performance.now();
  const end = started + job.durationS * 1000;
  const shopper = async () => {
    while (performance.now() < end) {
      const n = next++;
      const slug = job.slugs[(n * 2654435761) % job.slugs.length] ?? '';
      try {
        const created = await postWith(`${job.url}/checkout-sessions`, headers, {
          line_items: [{ item: { id: slug }, quantity: 1 }],
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
        record(created);
        const session = Session.safeParse(created.body);
        if (created.status !== 201 || !session.success) { refused(created); continue; }
        const completed = await postWith(`${job.url}/checkout-sessions/${session.data.id}/complete`, headers, {
          payment_data: {
            id: 'card', handler_id: 'mock_payment_handler', type: 'card', brand: 'Visa', last_digits: '4242',
            credential: { type: 'token', token: 'success_token' },
          },
        });
        record(completed);
        if (completed.status !== 200) { refused(completed); continue; }
        outcome.orders += 1;
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
