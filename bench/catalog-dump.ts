import { parseArgs } from 'node:util';
import { product } from './eyewear-catalog.ts';

/** `npm run bench:catalog -- --products N > catalog.ndjson`: the catalog as one JSON object per line. */
const { values } = parseArgs({ options: { products: { type: 'string', default: '100000' } } });
const count = Number(values.products);
if (!Number.isInteger(count) || count < 0) throw new Error('--products takes a whole number');
const lines: string[] = [];
for (let i = 0; i < count; i += 1) {
  lines.push(JSON.stringify(product(i)));
  if (lines.length === 10_000) {
    process.stdout.write(`${lines.join('\n')}\n`);
    lines.length = 0;
  }
}
if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
