import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/access/api-keys.ts';
import { categories, products } from '../../src/db/schema.ts';
import { runButik, startServe } from '../helpers/butik-process.ts';
import { processDatabase } from '../helpers/process-db.ts';
import type { ProcessDatabase } from '../helpers/process-db.ts';

/**
 * `butik policies` and `butik approvals` beside a running server: on the embedded database the CLI goes through
 * the server that holds the data directory, with the master key from it; on PostgreSQL it opens the database.
 */
let store: ProcessDatabase;
let agentKey = '';
const elsewhere = mkdtempSync(join(tmpdir(), 'butik-elsewhere-'));
beforeAll(async () => {
  store = await processDatabase();
  const database = await store.open();
  try {
    await database.migrate();
    agentKey = (await createKey(database.db, { name: 'cli-agent', scopes: ['products:write'] }, { actor: { kind: 'cli' }, channel: 'cli', at: new Date() })).key;
    const [category] = await database.db.insert(categories).values({ slug: 'solbriller', name: 'Solbriller' }).returning();
    await database.db.insert(products).values({
      slug: 'aviator', name: 'Aviator', description: 'A pilot frame.', priceDkk: 100000, stock: 5, categoryId: category!.id,
    });
  } finally {
    await database.close();
  }
});
afterAll(async () => {
  rmSync(elsewhere, { recursive: true, force: true });
  await store?.drop();
});

const butik = (...args: string[]) => runButik(args, { ...store.env, LOG_LEVEL: 'silent' });

describe('butik policies and butik approvals', () => {
  it('sets the document, and a person approves an agent\'s held call from the terminal while the server runs', async () => {
    const file = join(elsewhere, 'policies.json');
    writeFileSync(file, JSON.stringify({ rules: [{ kind: 'price_drop', percentOver: 20 }] }));
    const set = await butik('policies', 'set', file);
    expect(set.code, set.stderr).toBe(0);
    writeFileSync(join(elsewhere, 'bad.json'), '{"rules":[{"kind":"price_drop","percentOver":20,"keyz":["x"]}]}');
    const bad = await butik('policies', 'set', join(elsewhere, 'bad.json'));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('"keyz"');

    const server = await startServe({ ...store.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', BUTIK_SEED: 'none' });
    try {
      const { url } = server;
      const shown = await butik('policies', 'show');
      expect(shown.code, shown.stderr).toBe(0);
      expect(JSON.parse(shown.stdout)).toEqual({ rules: [{ kind: 'price_drop', percentOver: 20 }] });

      const call = (tool: string, body: unknown) => fetch(`${url}/api/v1/tools/${tool}`, {
        method: 'POST', headers: { authorization: `Bearer ${agentKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
      });
      const held = await call('products.update', { slug: 'aviator', patch: { priceDkk: 5000 } });
      expect(held.status).toBe(202);
      const { approval } = await held.json() as { approval: { id: string } };

      // The agent's own key opens no door: the owner commands refuse it.
      const refused = await fetch(`${url}/api/v1/commands/approvals.approve`, {
        method: 'POST', headers: { authorization: `Bearer ${agentKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ id: approval.id }),
      });
      expect(refused.status).toBe(403);
      // Without the shop's data directory (or master key) the CLI reaches another, empty shop.
      const stranger = await runButik(['approvals', 'approve', approval.id], { BUTIK_DATA_DIR: join(elsewhere, 'data'), LOG_LEVEL: 'silent' });
      expect(stranger.code).toBe(1);

      const listed = await butik('approvals', 'list');
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout)).toMatchObject([{ id: approval.id, status: 'pending', agent: 'cli-agent', tool: 'products.update', arguments: { slug: 'aviator', patch: { priceDkk: 5000 } } }]);
      const approved = await butik('approvals', 'approve', approval.id, '--note', 'ok for the sale');
      expect(approved.code, approved.stderr).toBe(0);
      expect(JSON.parse(approved.stdout)).toMatchObject({ status: 'approved', decidedBy: store.kind === 'pglite' ? 'master' : 'cli', result: { slug: 'aviator' } });
      expect((await butik('approvals', 'deny', approval.id)).code).toBe(1);

      const polled = await call('approvals.get', { id: approval.id });
      expect(await polled.json()).toMatchObject({ result: { status: 'approved' } });
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 240_000);
});
