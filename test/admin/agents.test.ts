import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/access/api-keys.ts';
import { createTestApp, MASTER_KEY } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { master } from '../helpers/fixtures.ts';
import { page, post, staffCookie } from './helpers.ts';

let t: TestApp;
let owner: string;
let manager: string;
let viewer: string;
beforeAll(async () => {
  t = await createTestApp();
  owner = await staffCookie(t, 'olga@shop.dk', 'owner');
  manager = await staffCookie(t, 'mads@shop.dk', 'manager');
  viewer = await staffCookie(t, 'vera@shop.dk', 'viewer');
});
afterAll(async () => { await t?.close(); });

/** The owner's policy document, through the command route the CLI uses. */
function setPolicies(document: unknown) {
  return t.app.inject({
    method: 'POST', url: '/api/v1/commands/policies.set', headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ document }),
  });
}

async function agentKey(name: string) {
  return createKey(t.database.db, { name, scopes: ['categories:write', 'categories:read'] }, { actor: { kind: 'master' }, channel: 'cli', at: new Date() });
}

describe('/admin/agents', () => {
  it('lists each key with its scopes and today\'s changes; a manager pauses it from the console and its calls are refused', async () => {
    const key = await agentKey('catalog-agent');
    expect((await t.call('categories.upsert', { slug: 'by-agent', name: 'By agent' }, { key: key.key })).status).toBe(200);

    const listed = await page(t.app, manager, '/admin/agents');
    expect(listed.response.statusCode).toBe(200);
    const row = /<tr>\s*<td data-label="Agent"><a href="\/admin\/agents\/key%3A[^"]+">catalog-agent<\/a>[\s\S]*?<\/tr>/.exec(listed.response.body)?.[0] ?? '';
    expect(row).toContain('categories:write, categories:read');
    expect(row).toMatch(/data-label="Changes today" class="num">1</);
    expect(row).toContain('>active<');

    const paused = await post(t.app, manager, `/admin/agents/key%3A${key.id}/pause`, { _csrf: listed.csrf ?? '' });
    expect(paused.statusCode).toBe(303);
    expect(paused.headers.location).toBe(`/admin/agents/key%3A${key.id}?done=paused`);
    const refused = await t.call('categories.list', {}, { key: key.key });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain('paused by mads@shop.dk (manager)');

    const detail = await page(t.app, manager, `/admin/agents/key%3A${key.id}?done=paused`);
    expect(detail.response.body).toContain('The agent is paused');
    expect(detail.response.body).toContain('Paused by mads@shop.dk (manager)');
    expect(detail.response.body).toContain('Only an owner resumes a paused agent.');
    expect(detail.response.body).toContain('/admin/activity?actor=catalog-agent');
    const notResumed = await post(t.app, manager, `/admin/agents/key%3A${key.id}/resume`, { _csrf: detail.csrf ?? '' });
    expect(notResumed.statusCode).toBe(403);

    const [entry] = (await t.call('audit.list', { targetId: `key:${key.id}` }, master)).body.result;
    expect(entry).toMatchObject({ tool: 'agents.pause', channel: 'admin', actor: { kind: 'staff', name: 'mads@shop.dk (manager)' } });
  });

  it('shows how many calls of each agent wait for approval, and pausing it from the console denies them', async () => {
    expect((await setPolicies({ rules: [{ kind: 'tool', tool: 'categories.delete' }] })).statusCode).toBe(200);
    const key = await agentKey('deleting-agent');
    expect((await t.call('categories.upsert', { slug: 'doomed', name: 'Doomed' }, { key: key.key })).status).toBe(200);
    const held = await t.call('categories.delete', { slug: 'doomed', confirm: true }, { key: key.key });
    expect(held.status).toBe(202);

    const listed = await page(t.app, owner, '/admin/agents');
    const row = /<tr>\s*<td data-label="Agent"><a href="[^"]+">deleting-agent<\/a>[\s\S]*?<\/tr>/.exec(listed.response.body)?.[0] ?? '';
    expect(row).toMatch(/data-label="Waiting for approval" class="num"><a href="\/admin\/approvals">1<\/a>/);

    expect((await post(t.app, owner, `/admin/agents/key%3A${key.id}/pause`, { _csrf: listed.csrf ?? '' })).statusCode).toBe(303);
    const after = await page(t.app, owner, `/admin/agents/key%3A${key.id}`);
    expect(after.response.body).toMatch(/<dt>Waiting for approval<\/dt><dd>0<\/dd>/);
    expect((await setPolicies({ rules: [] })).statusCode).toBe(200);
  });

  it('lets an owner resume, and shows a viewer the list without buttons', async () => {
    const key = await agentKey('resumable-agent');
    const listed = await page(t.app, owner, '/admin/agents');
    await post(t.app, owner, `/admin/agents/key%3A${key.id}/pause`, { _csrf: listed.csrf ?? '' });
    const seen = await page(t.app, viewer, '/admin/agents');
    expect(seen.response.statusCode).toBe(200);
    expect(seen.response.body).toContain('resumable-agent');
    expect(seen.response.body).not.toMatch(/<button[^>]*>(Pause|Resume)/);
    const byViewer = await post(t.app, viewer, `/admin/agents/key%3A${key.id}/resume`, { _csrf: seen.csrf ?? '' });
    expect(byViewer.statusCode).toBe(403);

    const detail = await page(t.app, owner, `/admin/agents/key%3A${key.id}`);
    const resumed = await post(t.app, owner, `/admin/agents/key%3A${key.id}/resume`, { _csrf: detail.csrf ?? '' });
    expect(resumed.statusCode).toBe(303);
    expect((await t.call('categories.list', {}, { key: key.key })).status).toBe(200);
  });

  it('answers 404 for an agent that does not exist', async () => {
    expect((await page(t.app, owner, '/admin/agents/key%3Anobody')).response.statusCode).toBe(404);
    expect((await page(t.app, owner, '/admin/agents/whatever')).response.statusCode).toBe(404);
  });

  it('undoes an agent\'s session from its page: conflicts unticked by default, the rest in one batch; Activity filtered to it links there', async () => {
    const key = await agentKey('session-agent');
    const startedAt = new Intl.DateTimeFormat('sv-SE', { timeZone: t.config.admin.timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
      .format(new Date(Date.now() - 60_000)).replace(' ', 'T');
    await t.call('categories.upsert', { slug: 'session-a', name: 'Session A' }, { key: key.key });
    await t.call('categories.upsert', { slug: 'session-b', name: 'Session B' }, { key: key.key });
    await t.call('categories.upsert', { slug: 'session-b', name: 'Fixed by hand' }, master);

    const activity = await page(t.app, manager, '/admin/activity?actor=session-agent');
    expect(activity.response.body).toContain(`href="/admin/agents/key%3A${key.id}#undo"`);

    const preview = await page(t.app, manager, `/admin/agents/key%3A${key.id}/undo?since=${encodeURIComponent(startedAt)}`);
    expect(preview.response.statusCode).toBe(200);
    const body = preview.response.body;
    const ready = /<input type="checkbox" name="entry" value="([^"]+)" checked>/.exec(body)?.[1];
    const conflict = /<input type="checkbox" name="accept" value="([^"]+)">/.exec(body)?.[1];
    expect(ready).toBeDefined();
    expect(conflict).toBeDefined();
    expect(body).toContain('Changed afterwards by someone else');
    expect(body).toContain('master (categories.upsert');
    // Each change is named as Activity names it, not by its target's id.
    expect(body).toContain('Category Session A (session-a) · <code>categories.upsert</code>');
    expect(body).toContain('Category Session B (session-b) · <code>categories.upsert</code>');

    const applied = await post(t.app, manager, `/admin/agents/key%3A${key.id}/undo?since=${encodeURIComponent(startedAt)}`, { _csrf: preview.csrf ?? '', entry: ready ?? '' });
    expect(applied.statusCode).toBe(303);
    expect(applied.headers.location).toBe(`/admin/agents/key%3A${key.id}?done=undone&count=1`);
    const categories = (await t.call('categories.list', {}, master)).body.result as Array<{ slug: string; name: string }>;
    expect(categories.find((row) => row.slug === 'session-a')).toBeUndefined();
    expect(categories.find((row) => row.slug === 'session-b')).toMatchObject({ name: 'Fixed by hand' });
    const [batch] = (await t.call('audit.list', { tool: 'audit.undo_session', limit: 1 }, master)).body.result;
    expect(batch).toMatchObject({ channel: 'admin', actor: { name: 'mads@shop.dk (manager)' }, targetType: 'audit_batch', targetId: `key:${key.id}` });
  });

  it('does not offer a viewer the undo, and the tool refuses one who tries', async () => {
    const key = await agentKey('viewer-target');
    const detail = await page(t.app, viewer, `/admin/agents/key%3A${key.id}`);
    expect(detail.response.body).not.toContain('Undo this agent');
    const tried = await post(t.app, viewer, `/admin/agents/key%3A${key.id}/undo?since=2026-01-01T00%3A00`, { _csrf: detail.csrf ?? '', entry: 'x' });
    expect(tried.statusCode).toBe(422);
    expect(tried.body).toContain('audit:revert');
  });
});

