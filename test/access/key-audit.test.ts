import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { send } from '../helpers/http.ts';
import { addPerson, page, post, signIn } from '../admin/helpers.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

const asMaster = { authorization: `Bearer ${master.key}`, 'content-type': 'application/json' };

async function entriesAbout(keyId: string) {
  const listed = await t.call('audit.list', { targetId: keyId }, master);
  expect(listed.status).toBe(200);
  return listed.body.result as Array<{ id: string; tool: string; channel: string; actor: { name: string }; targetType: string; before: unknown; after: unknown }>;
}

describe('API key changes in the audit log', () => {
  it('records a key created, rotated and revoked over REST as the master key, without the secret, and refuses to revert them', async () => {
    const created = await send(t, { method: 'POST', url: '/api/v1/keys', headers: asMaster, payload: { name: 'agent', scopes: ['catalog:read'] } });
    expect(created.status).toBe(201);
    const { id, key } = created.body.result;
    await send(t, { method: 'POST', url: `/api/v1/keys/${id}/rotate`, headers: asMaster, payload: {} });
    await send(t, { method: 'DELETE', url: `/api/v1/keys/${id}`, headers: { authorization: asMaster.authorization } });
    await send(t, { method: 'DELETE', url: `/api/v1/keys/${id}`, headers: { authorization: asMaster.authorization } });

    const entries = await entriesAbout(id);
    expect(entries.map((entry) => [entry.tool, entry.channel, entry.actor.name, entry.targetType])).toEqual([
      ['keys.revoke', 'rest', 'master', 'api_key'],
      ['keys.rotate', 'rest', 'master', 'api_key'],
      ['keys.create', 'rest', 'master', 'api_key'],
    ]);
    expect(entries[2]?.after).toMatchObject({ id, name: 'agent', scopes: ['catalog:read'], revokedAt: null });
    expect(entries[0]?.after).toMatchObject({ revokedAt: expect.any(String) });
    const stored = JSON.stringify(entries);
    expect(stored).not.toContain(key);
    expect(stored).not.toMatch(/"hash"/);

    const revert = await t.call('audit.revert', { entryId: entries[0]?.id }, master);
    expect(revert.status).toBe(422);
    expect(revert.body.code).toBe('not_revertible');
  });

  it('records a key an owner creates in the console under the owner, and Activity shows it without Revert', async () => {
    await addPerson(t.database.db, 'olga@shop.dk', 'owner');
    const cookie = (await signIn(t.app, 'olga@shop.dk')).cookie ?? '';
    const keys = await page(t.app, cookie, '/admin/keys');
    const made = await post(t.app, cookie, '/admin/keys', { _csrf: keys.csrf ?? '', name: 'console-made', scopes: 'orders:read' });
    expect(made.statusCode).toBe(200);
    const [entry] = (await t.call('audit.list', { tool: 'keys.create', limit: 1 }, master)).body.result;
    expect(entry).toMatchObject({ channel: 'admin', actor: { kind: 'staff', name: 'olga@shop.dk (owner)' }, after: { name: 'console-made' } });
    const activity = await page(t.app, cookie, '/admin/activity?tool=keys.create');
    expect(activity.response.body).toContain('olga@shop.dk (owner)');
    expect(activity.response.body).not.toContain(`/admin/activity/${String(entry.id)}/revert`);
  });
});
