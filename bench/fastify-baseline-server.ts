import Fastify from 'fastify';
import { baselinePool, getProduct } from './baseline-product.ts';

/**
 * products.get on a bare Fastify app: the framework Butik is built on, with its JSON body parser and routing,
 * the same prepared statement and the same JSON, and nothing of Butik's (authentication, rate limits, input
 * validation, headers, request log). Beside the node:http baseline it shows what the framework costs, and
 * Butik against it what Butik adds. Started by bench/run.ts; prints {"port": N} when listening.
 */
const pool = baselinePool();
const app = Fastify({ logger: false, keepAliveTimeout: 65_000 });

app.post('/api/v1/tools/products.get', async (request, reply) => {
  const body: unknown = request.body;
  const slug = typeof body === 'object' && body !== null ? Reflect.get(body, 'slug') : undefined;
  if (typeof slug !== 'string') return reply.code(400).send({ ok: false });
  const product = await getProduct(pool, slug);
  return product ? { ok: true, result: product } : reply.code(404).send({ ok: false });
});

const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ port: Number(new URL(address).port) })}\n`);
const stop = () => { app.close().then(() => pool.end()).finally(() => process.exit(0)); };
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
