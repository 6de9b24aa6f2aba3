import { describe, expect, it } from 'vitest';
import { oauthRecords } from '../../src/db/schema.ts';
import { MASTER_KEY } from '../helpers/app.ts';
import { addPerson } from '../admin/helpers.ts';
import { MISSING, WIDTHS, expectAccessible, expectNoHorizontalScroll, screenshot } from './chromium.ts';
import { consoleInBrowser } from './in-browser.ts';

let agentKey = '';

const shop = consoleInBrowser(async (t, origin) => {
  await addPerson(t.database.db, 'olga@shop.dk', 'owner');
  agentKey = await t.keyWith('products:write', 'categories:write', 'catalog:read');
  const inAnHour = new Date(Date.now() + 3600_000);
  await t.database.db.insert(oauthRecords).values([
    { model: 'Client', id: 'client-claude', payload: { client_id: 'client-claude', client_name: 'Claude for Butik', redirect_uris: ['https://claude.example/cb'] } },
    { model: 'Grant', id: 'grant-claude', expiresAt: inAnHour, payload: { clientId: 'client-claude', accountId: 'owner', iat: 1_763_000_000, resources: { [`${origin}/api/mcp`]: 'orders:read catalog:read' } } },
    { model: 'AccessToken', id: 'at-claude', grantId: 'grant-claude', expiresAt: inAnHour, payload: { clientId: 'client-claude', grantId: 'grant-claude', iat: 1_763_500_000 } },
  ]);
});

function owner(viewport?: { width: number; height: number }) {
  return shop.signedIn('olga@shop.dk', viewport);
}

describe.skipIf(MISSING)('the agents pages in a browser', () => {
  it('pauses a connected app from the list and resumes it from its page', async () => {
    const page = await owner();
    try {
      await page.goto(`${shop.origin()}/admin/agents`);
      await page.getByRole('button', { name: 'Pause Claude for Butik' }).click();
      await page.waitForURL(/\/admin\/agents\/app%3Aclient-claude\?done=paused$/);
      await expect.poll(() => page.getByRole('status').textContent()).toContain('The agent is paused');
      await page.getByRole('button', { name: 'Resume Claude for Butik' }).click();
      await page.waitForURL(/done=resumed$/);
      expect(await page.locator('dd').nth(3).textContent()).toBe('active');
    } finally {
      await page.context().close();
    }
  });

  it('passes axe on the list, an agent\'s page and its undo preview at 1440 and 375 px, without horizontal scrolling, and saves screenshots', async () => {
    const t = shop.app();
    expect((await t.call('categories.upsert', { slug: 'agent-made', name: 'Agent made' }, { key: agentKey })).status).toBe(200);
    expect((await t.call('categories.upsert', { slug: 'agent-other', name: 'Agent other' }, { key: agentKey })).status).toBe(200);
    // A person fixes one of them afterwards: the undo preview marks it as a conflict.
    expect((await t.call('categories.upsert', { slug: 'agent-made', name: 'Fixed by hand' }, { key: MASTER_KEY })).status).toBe(200);
    const setup = await owner();
    try {
      await setup.goto(`${shop.origin()}/admin/agents`);
      await setup.getByRole('button', { name: 'Pause test products:write categories:write catalog:read' }).click();
      await setup.waitForURL(/done=paused$/);
    } finally {
      await setup.context().close();
    }
    for (const viewport of WIDTHS) {
      const page = await owner(viewport);
      try {
        await page.goto(`${shop.origin()}/admin/agents`);
        await expectAccessible(page, `/admin/agents at ${viewport.width}`);
        await expectNoHorizontalScroll(page, `/admin/agents at ${viewport.width}`);
        await screenshot(page, `admin-agents-${viewport.width}`);
        await page.getByRole('link', { name: 'test products:write categories:write catalog:read' }).click();
        await expectAccessible(page, `agent page at ${viewport.width}`);
        await expectNoHorizontalScroll(page, `agent page at ${viewport.width}`);
        await screenshot(page, `admin-agent-${viewport.width}`);
        await page.getByRole('button', { name: 'Show what would be undone' }).click();
        await page.waitForURL(/\/undo\?since=/);
        expect(await page.getByRole('checkbox').count()).toBe(2);
        expect(await page.getByRole('checkbox', { checked: true }).count()).toBe(1);
        await expectAccessible(page, `undo preview at ${viewport.width}`);
        await expectNoHorizontalScroll(page, `undo preview at ${viewport.width}`);
        await screenshot(page, `admin-agent-undo-${viewport.width}`);
      } finally {
        await page.context().close();
      }
    }
  });
});

describe.skipIf(MISSING)('undoing a session in a browser', () => {
  it('undoes the ticked changes and leaves the one a person fixed', async () => {
    const t = shop.app();
    const page = await owner();
    try {
      await page.goto(`${shop.origin()}/admin/agents`);
      await page.getByRole('link', { name: 'test products:write categories:write catalog:read' }).click();
      await page.getByRole('button', { name: 'Show what would be undone' }).click();
      await page.getByRole('button', { name: 'Undo the ticked changes' }).click();
      await page.waitForURL(/done=undone&count=1$/);
      const categories = (await t.call('categories.list', {}, { key: MASTER_KEY })).body.result as Array<{ slug: string; name: string }>;
      expect(categories.map((row) => row.slug)).not.toContain('agent-other');
      expect(categories.find((row) => row.slug === 'agent-made')).toMatchObject({ name: 'Fixed by hand' });
    } finally {
      await page.context().close();
    }
  });
});
