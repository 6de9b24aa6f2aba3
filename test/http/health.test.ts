import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { MASTER_KEY, createTestApp, openTestDatabase } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { send } from '../helpers/http.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

describe('health', () => {
  it('answers GET /healthz with 200 {"ok":true}', async () => {
    const response = await send(t, { method: 'GET', url: '/healthz' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ok: true });
    expect(response.headers['x-request-id']).toBeDefined();
  });

  it('answers GET /readyz with 200 {"ok":true} while the database answers', async () => {
    const response = await send(t, { method: 'GET', url: '/readyz' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ok: true });
  });

  it('answers GET /readyz with 503 once the database is gone, and /healthz still with 200', async () => {
    const { database, drop } = await openTestDatabase();
    const app = buildApp({ config: loadConfig({ LOG_LEVEL: 'silent' }), database, masterKey: MASTER_KEY, logger: false });
    try {
      await app.ready();
      await drop();
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ ok: false });
      expect(ready.body).not.toMatch(/error:|ECONN|password|select/i);
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('needs no credentials and ignores a bad key', async () => {
    const response = await send(t, { method: 'GET', url: '/healthz', headers: { authorization: 'Bearer bk_nonsense' } });
    expect(response.status).toBe(200);
  });
});
