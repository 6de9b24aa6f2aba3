import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import type { Database } from '../../src/db/client.ts';
import { readPolicyDocument } from '../../src/policies/store.ts';
import { createTestApp, MASTER_KEY } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';

/**
 * The policy document is read from memory on every agent's call; like the settings, no read ever gets a
 * document older than the last change it could know of, on this instance or on another on the same PostgreSQL.
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

async function setPolicies(document: unknown): Promise<void> {
  const response = await t.app.inject({
    method: 'POST', url: '/api/v1/commands/policies.set', headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' },
    payload: { document },
  });
  if (response.statusCode !== 200) throw new Error(response.body);
}

describe('the policy document cache', () => {
  it('shows a change on the next read of the same instance', async () => {
    expect(await readPolicyDocument(t.database.db)).toEqual({ rules: [] });
    await setPolicies({ rules: [{ kind: 'refund' }] });
    expect(await readPolicyDocument(t.database.db)).toEqual({ rules: [{ kind: 'refund' }] });
  });

  describe.runIf(TEST_DATABASE_URL)('on two instances of one PostgreSQL', () => {
    let other: Database;
    beforeAll(async () => {
      const [row] = await t.database.db.select({ name: sql<string>`current_schema()` }).from(sql`(select 1) as one`);
      other = await openDatabase({ url: TEST_DATABASE_URL, schemaName: row?.name, poolSize: 2, applicationName: 'butik other' });
      await other.migrate();
    });
    afterAll(async () => { await other?.close(); });

    it('shows the other instance a change made through one', async () => {
      await expect.poll(async () => readPolicyDocument(other.db)).toEqual({ rules: [{ kind: 'refund' }] });
      await setPolicies({ rules: [{ kind: 'tool', tool: 'products.delete' }] });
      await expect.poll(async () => readPolicyDocument(other.db)).toEqual({ rules: [{ kind: 'tool', tool: 'products.delete' }] });
    });
  });
});
