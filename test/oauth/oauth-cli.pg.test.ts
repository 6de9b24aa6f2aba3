import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthRecords } from '../../src/db/schema.ts';
import { runButik, startServe } from '../helpers/butik-process.ts';
import { processDatabase } from '../helpers/process-db.ts';
import type { ProcessDatabase } from '../helpers/process-db.ts';
import { register } from '../helpers/oauth.ts';

/**
 * `butik oauth list|revoke`: offline on the database, and through the running server when it holds the
 * embedded database (the CLI cannot open it then).
 */
let store: ProcessDatabase;
beforeAll(async () => { store = await processDatabase(); });
afterAll(async () => { await store?.drop(); });

const butik = (...args: string[]) => runButik(args, { ...store.env, LOG_LEVEL: 'silent' });
const inAnHour = () => new Date(Date.now() + 3600_000);

/** One connected application as oidc-provider stores it: client, grant, an access token under the grant. */
async function seedConnection(clientId: string, grantId: string): Promise<void> {
  const database = await store.open();
  try {
    await database.migrate();
    await database.db.insert(oauthRecords).values([
      { model: 'Client', id: clientId, payload: { client_id: clientId, client_name: `App ${clientId}`, redirect_uris: ['https://app.example/cb'] } },
      {
        model: 'Grant', id: grantId, expiresAt: inAnHour(),
        payload: { clientId, accountId: 'owner', iat: 1_700_000_000, resources: { 'http://butik.test/api/mcp': 'orders:read' } },
      },
      { model: 'AccessToken', id: `hash-of-${grantId}`, grantId, expiresAt: inAnHour(), payload: { clientId, grantId } },
    ]);
  } finally {
    await database.close();
  }
}

describe('butik oauth, offline', () => {
  it('lists connected applications with their grants, ends a grant, and disconnects an application', async () => {
    await seedConnection('client-a', 'grant-a');
    await seedConnection('client-b', 'grant-b');
    const listed = await butik('oauth', 'list');
    expect(listed.code, listed.stderr).toBe(0);
    const connections = JSON.parse(listed.stdout) as Array<Record<string, any>>;
    expect(connections.map((c) => c.clientId).sort()).toEqual(['client-a', 'client-b']);
    expect(connections.find((c) => c.clientId === 'client-a')).toMatchObject({
      clientName: 'App client-a', redirectUris: ['https://app.example/cb'],
      grants: [{ grantId: 'grant-a', scopes: { 'http://butik.test/api/mcp': 'orders:read' }, liveTokens: 1 }],
    });

    const endGrant = await butik('oauth', 'revoke', '--grant', 'grant-a');
    expect(endGrant.code, endGrant.stderr).toBe(0);
    expect(JSON.parse(endGrant.stdout)).toEqual({ grantId: 'grant-a', deletedRecords: 2 });
    const disconnect = await butik('oauth', 'revoke', 'client-b');
    expect(JSON.parse(disconnect.stdout)).toEqual({ clientId: 'client-b', deletedRecords: 3 });

    const after = JSON.parse((await butik('oauth', 'list')).stdout) as Array<Record<string, any>>;
    expect(after).toMatchObject([{ clientId: 'client-a', grants: [] }]);
    const unknown = await butik('oauth', 'revoke', 'client-b');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No OAuth client client-b');
    expect((await butik('oauth', 'revoke')).code).toBe(2);
  }, 240_000);
});

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('butik oauth beside a running server on the embedded database', () => {
  it('goes through the server that holds the data directory, with the master key from it', async () => {
    const server = await startServe({ ...store.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', BUTIK_SEED: 'none' });
    try {
      const { url } = server;
      const registered = await register(url, { client_name: 'Live Chat' });
      const { client_id: clientId } = await registered.json() as { client_id: string };

      const listed = await butik('oauth', 'list');
      expect(listed.code, listed.stderr).toBe(0);
      expect((JSON.parse(listed.stdout) as Array<Record<string, any>>).map((c) => c.clientName)).toContain('Live Chat');
      const revoked = await butik('oauth', 'revoke', clientId);
      expect(revoked.code, revoked.stderr).toBe(0);
      expect(JSON.parse(revoked.stdout)).toMatchObject({ clientId });
      const after = JSON.parse((await butik('oauth', 'list')).stdout) as Array<Record<string, any>>;
      expect(after.map((c) => c.clientId)).not.toContain(clientId);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(existsSync(join(store.dataDir, 'server.url'))).toBe(false);
  }, 120_000);
});
