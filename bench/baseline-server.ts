import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { baselineSearch } from './baseline-search.ts';
import { baselinePool, getProduct } from './baseline-product.ts';
import { checkout, createCart } from './baseline-checkout.ts';

/**
 * The benchmark's floor: plain node:http and pg, the same SQL and the same JSON as Butik's products.search,
 * products.get, cart.create and cart.checkout (bench/baseline-checkout.ts), and nothing else (no framework,
 * validation, authentication, rate limits, logging): the bench sends only well-formed bodies. Butik's
 * req/s is reported as a ratio of this server's. Started by bench/run.ts; prints {"port": N} when listening.
 */
const pool = baselinePool();

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

const server = createServer((request, response) => {
  readBody(request).then(async (text) => {
    const input: unknown = JSON.parse(text);
    if (typeof input !== 'object' || input === null) return send(response, 400, { ok: false });
    if (request.url === '/api/v1/tools/products.search') {
      return send(response, 200, { ok: true, result: await baselineSearch(pool, input) });
    }
    if (request.url === '/api/v1/tools/products.get' && 'slug' in input && typeof input.slug === 'string') {
      const product = await getProduct(pool, input.slug);
      return product ? send(response, 200, { ok: true, result: product }) : send(response, 404, { ok: false });
    }
    if (request.url === '/api/v1/tools/cart.create') {
      const answer = await createCart(pool, input as Parameters<typeof createCart>[1]);
      return send(response, answer.status, answer.body);
    }
    if (request.url === '/api/v1/tools/cart.checkout') {
      const answer = await checkout(pool, input as Parameters<typeof checkout>[1]);
      return send(response, answer.status, answer.body);
    }
    return send(response, 404, { ok: false });
  }).catch((error: unknown) => {
    process.stderr.write(`baseline: ${error instanceof Error ? error.message : String(error)}\n`);
    send(response, 500, { ok: false });
  });
});
server.keepAliveTimeout = 65_000;

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
});
const stop = () => server.close(() => { pool.end().finally(() => process.exit(0)); });
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
