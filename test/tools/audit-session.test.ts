import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createKey } from '../../src/access/api-keys.ts';
import { previewSessionUndo } from '../../src/tools/audit-session.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createProduct, master, uniqueSlug } from '../helpers/fixtures.ts';

/**
 * audit.undo_session, undoing an agent's session: a preview marks what someone else changed afterwards, the chosen entries are
 * reverted in one transaction newest first, and the whole undo is one entry audit.revert can undo.
 */
let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

type Agent = { agent: string; key: string };
let bot: Agent;
let since: string;
beforeEach(async () => {
  const created = await createKey(t.database.db, { name: uniqueSlug('bot'), scopes: ['categories:write', 'categories:read', 'pages:write', 'pages:read', 'products:write', 'audit:revert', 'audit:read'] },
    { actor: { kind: 'master' }, channel: 'cli', at: new Date() });
  bot = { agent: `key:${created.id}`, key: created.key };
  since = new Date().toISOString();
});

const asBot = () => ({ key: bot.key });
/** The preview the console shows before a person applies the undo (a read of the core, no tool). */
const preview = async () => (await previewSessionUndo(t.database.db, bot.agent, new Date(since))).entries;
const category = async (slug: string) => (await t.call('categories.list', {}, master)).body.result.find((row: { slug: string }) => row.slug === slug);

describe('audit.undo_session', () => {
  it('previews newest first, marks a target someone else changed afterwards as a conflict, and leaves it out unless ticked', async () => {
    const a = uniqueSlug('a');
    const b = uniqueSlug('b');
    const page = uniqueSlug('p');
    await t.call('categories.upsert', { slug: a, name: 'Agent A' }, asBot());
    await t.call('categories.upsert', { slug: b, name: 'Agent B' }, asBot());
    await t.call('categories.upsert', { slug: a, name: 'Agent A renamed' }, asBot());
    await t.call('pages.upsert', { slug: page, title: 'Agent page', body: 'Written by the agent.' }, asBot());
    await t.call('pages.upsert', { slug: page, title: 'Fixed by a person', body: 'Written by the owner.' }, master);

    const entries = await preview();
    expect(entries.map((entry) => [entry.tool, entry.status])).toEqual([
      ['pages.upsert', 'conflict'], ['categories.upsert', 'ready'], ['categories.upsert', 'ready'], ['categories.upsert', 'ready'],
    ]);
    expect(entries[0]).toMatchObject({ reason: 'Changed afterwards by master.', laterChanges: [{ actorName: 'master' }] });

    const ready = entries.filter((entry) => entry.status === 'ready').map((entry) => entry.id);
    const undone = await t.call('audit.undo_session', { agent: bot.agent, entryIds: ready }, master);
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect(undone.body.result.reverted.map((item: { entryId: string }) => item.entryId)).toEqual(ready);
    expect(await category(a)).toBeUndefined();
    expect(await category(b)).toBeUndefined();
    expect((await t.call('site.get_page', { slug: page })).body.result).toMatchObject({ title: 'Fixed by a person' });

    // The conflict is still offered; ticked, it also undoes the person's later change.
    const [conflict] = await preview();
    expect(conflict).toMatchObject({ tool: 'pages.upsert', status: 'conflict' });
    const untickedRefused = await t.call('audit.undo_session', { agent: bot.agent, entryIds: [conflict?.id] }, master);
    expect(untickedRefused.status).toBe(422);
    expect(untickedRefused.body.detail).toContain('changed afterwards by master');
    const ticked = await t.call('audit.undo_session', { agent: bot.agent, entryIds: [conflict?.id], acceptConflicts: [conflict?.id] }, master);
    expect(ticked.status, JSON.stringify(ticked.body)).toBe(200);
    expect(ticked.body.result.reverted).toHaveLength(2);
    expect((await t.call('site.get_page', { slug: page })).status).toBe(404);
    expect(await preview()).toEqual([]);
  });

  it('counts no conflict where a person changed the target and took the change back', async () => {
    const slug = uniqueSlug('back');
    await t.call('categories.upsert', { slug, name: 'Agent' }, asBot());
    await t.call('categories.upsert', { slug, name: 'Person' }, master);
    const [personal] = (await t.call('audit.list', { actorName: 'master', tool: 'categories.upsert', limit: 1 }, master)).body.result;
    expect((await t.call('audit.revert', { entryId: personal.id }, master)).status).toBe(200);

    const entries = await preview();
    expect(entries.map((entry) => entry.status)).toEqual(['ready']);
    const undone = await t.call('audit.undo_session', { agent: bot.agent, entryIds: entries.map((entry) => entry.id) }, master);
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect(await category(slug)).toBeUndefined();
  });

  it('is all or nothing: one entry that cannot be reverted leaves every other as it was', async () => {
    const kept = uniqueSlug('kept');
    const used = uniqueSlug('used');
    await t.call('categories.upsert', { slug: kept, name: 'Agent made' }, asBot());
    await t.call('categories.upsert', { slug: used, name: 'Now holds a product' }, asBot());
    // A product placed in the agent's category meanwhile: deleting the category again is impossible.
    await createProduct(t, { categorySlug: used });

    const entries = await preview();
    expect(entries.map((entry) => entry.status)).toEqual(['ready', 'ready']);
    const refused = await t.call('audit.undo_session', { agent: bot.agent, entryIds: entries.map((entry) => entry.id) }, master);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('not_revertible');
    expect(await category(kept)).toMatchObject({ name: 'Agent made' });
    expect(await category(used)).toMatchObject({ name: 'Now holds a product' });
    expect((await preview()).map((entry) => entry.id)).toEqual(entries.map((entry) => entry.id));
  });

  it('records one batch entry that audit.revert undoes, bringing every change back, revertible again', async () => {
    const slug = uniqueSlug('again');
    await t.call('categories.upsert', { slug, name: 'First' }, asBot());
    await t.call('categories.upsert', { slug, name: 'Second' }, asBot());
    const entries = await preview();
    const undone = await t.call('audit.undo_session', { agent: bot.agent, entryIds: entries.map((entry) => entry.id) }, master);
    expect(await category(slug)).toBeUndefined();

    const [batch] = (await t.call('audit.list', { targetId: bot.agent, tool: 'audit.undo_session' }, master)).body.result;
    expect(batch).toMatchObject({ id: undone.body.result.batchEntryId, targetType: 'audit_batch', actor: { name: 'master' }, after: { agent: bot.agent } });
    const redone = await t.call('audit.revert', { entryId: batch.id }, master);
    expect(redone.status, JSON.stringify(redone.body)).toBe(200);
    expect(await category(slug)).toMatchObject({ name: 'Second' });
    // The agent's changes count as in effect again: a new preview offers them, and the batch is not undone twice.
    expect((await preview()).map((entry) => entry.id)).toEqual(entries.map((entry) => entry.id));
    expect((await t.call('audit.revert', { entryId: batch.id }, master)).body.code).toBe('not_revertible');
  });

  it('refuses an agent: only a person undoes a session', async () => {
    await t.call('categories.upsert', { slug: uniqueSlug('self'), name: 'Self' }, asBot());
    const entries = await preview();
    const refused = await t.call('audit.undo_session', { agent: bot.agent, entryIds: entries.map((entry) => entry.id) }, asBot());
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain('Only a person undoes');
    expect(entries).toHaveLength(1);
    expect((await preview())).toHaveLength(1);
  });
});
