import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runButik, startServe } from '../helpers/butik-process.ts';
import { processDatabase } from '../helpers/process-db.ts';
import type { ProcessDatabase } from '../helpers/process-db.ts';

/**
 * `butik keys pause|resume NAME` beside a running server: on the embedded database the CLI goes through the
 * server that holds it; on PostgreSQL it writes the database itself and the server hears it on its change feed.
 */
let store: ProcessDatabase;
beforeAll(async () => { store = await processDatabase(); });
afterAll(async () => { await store?.drop(); });

const MASTER_KEY = `pause-cli-master-${randomBytes(24).toString('hex')}`;

describe('butik keys pause beside a running server', () => {
  it('stops the named key at once and resume lets it call again', async () => {
    const env = { ...store.env, BUTIK_MASTER_KEY: MASTER_KEY, LOG_LEVEL: 'silent' };
    const server = await startServe({ ...env, PORT: '0', HOST: '127.0.0.1', BUTIK_SEED: 'none' });
    try {
      const { url } = server;
      const created = await fetch(`${url}/api/v1/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'night-agent', scopes: ['orders:read'] }),
      });
      const { id, key } = (await created.json() as { result: { id: string; key: string } }).result;
      const call = async () => {
        const response = await fetch(`${url}/api/v1/tools/orders.list`, {
          method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{}',
        });
        return { status: response.status, body: await response.json() as { code?: string } };
      };
      expect((await call()).status).toBe(200);

      const paused = await runButik(['keys', 'pause', 'night-agent'], env);
      expect(paused.code, paused.stderr).toBe(0);
      expect(JSON.parse(paused.stdout)).toMatchObject({ agent: `key:${id}`, paused: true });
      await expect.poll(async () => (await call()).body.code).toBe('agent_paused');

      const resumed = await runButik(['keys', 'resume', 'night-agent'], env);
      expect(resumed.code, resumed.stderr).toBe(0);
      await expect.poll(async () => (await call()).status).toBe(200);

      const unnamed = await runButik(['keys', 'pause'], env);
      expect(unnamed.code).toBe(2);
      expect(unnamed.stderr).toContain('butik keys pause NAME');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 120_000);
});
