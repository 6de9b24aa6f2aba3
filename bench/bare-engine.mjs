// The cold start's yardstick: the embedded engine alone. Node starts, loads PGlite, opens an existing cluster
// with the start parameters Butik gives it, answers one statement, and prints how long that took from the
// process's start. Plain JavaScript, so that no TypeScript loader adds to the time.
import { PGlite } from '@electric-sql/pglite';

const [dir, startParams] = process.argv.slice(2);
const db = await PGlite.create(dir, { startParams: JSON.parse(startParams) });
await db.query('select 1');
const readyMs = performance.now();
await db.close();
process.stdout.write(JSON.stringify({ readyMs }));
