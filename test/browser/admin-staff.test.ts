import { describe, expect, it } from 'vitest';
import { addPerson } from '../admin/helpers.ts';
import { MISSING, WIDTHS, expectAccessible, expectNoHorizontalScroll, expectUsable, screenshot } from './chromium.ts';
import { consoleInBrowser } from './in-browser.ts';

const shop = consoleInBrowser(async (t) => {
  await addPerson(t.database.db, 'olga@shop.dk', 'owner');
  await addPerson(t.database.db, 'mads.with.a.rather.long.address@shop.dk', 'viewer');
});

const NEW_PASSWORD = 'a brand new passphrase here';

describe.skipIf(MISSING)('staff, invitations and one\'s own account in a browser', () => {
  it('invites a person who sets a password, then the owner changes their role, at 1440 and 375 px', async () => {
    for (const [index, viewport] of WIDTHS.entries()) {
      const owner = await shop.signedIn('olga@shop.dk', viewport);
      const invited = await (await shop.browser().newContext({ viewport })).newPage();
      try {
        await owner.getByRole('link', { name: 'Staff' }).click();
        await owner.waitForURL(/\/admin\/staff$/);
        await owner.getByLabel('E-mail').fill(`ida${index}@shop.dk`);
        await owner.getByLabel('Role', { exact: true }).selectOption('manager');
        await owner.getByRole('button', { name: 'Create an invitation link' }).click();
        const link = await owner.getByLabel(/Invitation link/).inputValue();
        expect(link).toMatch(/\/admin\/invite\//);
        await expectAccessible(owner, `staff ${viewport.width}`);
        await expectNoHorizontalScroll(owner, `staff ${viewport.width}`);
        await screenshot(owner, `admin-staff-${viewport.width}`);

        await invited.goto(`${shop.origin()}${new URL(link).pathname}`);
        expect(await invited.locator('main').textContent()).toContain(`Choose a password for ida${index}@shop.dk (manager)`);
        await expectAccessible(invited, `invite ${viewport.width}`);
        await expectNoHorizontalScroll(invited, `invite ${viewport.width}`);
        await screenshot(invited, `admin-invite-${viewport.width}`);
        await invited.getByLabel('Password (at least 12 characters)').fill(NEW_PASSWORD);
        await invited.getByLabel('The same password again').fill(NEW_PASSWORD);
        await invited.getByRole('button', { name: 'Set the password and sign in' }).click();
        await invited.waitForURL(/\/admin\/overview$/);
        expect(await invited.locator('.who').textContent()).toContain(`ida${index}@shop.dk (manager)`);

        await owner.goto(`${shop.origin()}/admin/staff`);
        await owner.getByLabel(`Role of ida${index}@shop.dk`).selectOption('viewer');
        await owner.getByRole('button', { name: `Change role of ida${index}@shop.dk` }).click();
        expect(await owner.getByRole('status').textContent()).toContain(`ida${index}@shop.dk is now viewer.`);
        await invited.goto(`${shop.origin()}${new URL(link).pathname}`);
        expect(await invited.getByRole('alert').textContent()).toContain('This invitation link was used already.');
      } finally {
        await invited.close();
        await owner.close();
      }
    }
  }, 120_000);

  it('lists a waiting invitation and withdraws it on a confirmation page; its link then says so, at 1440 and 375 px', async () => {
    for (const [index, viewport] of WIDTHS.entries()) {
      const owner = await shop.signedIn('olga@shop.dk', viewport);
      const invited = await (await shop.browser().newContext({ viewport })).newPage();
      const email = `waiting.person.${index}@shop.dk`;
      try {
        await owner.goto(`${shop.origin()}/admin/staff`);
        await owner.getByLabel('E-mail').fill(email);
        await owner.getByRole('button', { name: 'Create an invitation link' }).click();
        const link = await owner.getByLabel(/Invitation link/).inputValue();
        await owner.goto(`${shop.origin()}/admin/staff`);
        const waiting = owner.getByRole('region', { name: 'Waiting invitations' });
        const row = waiting.getByRole('row').filter({ hasText: email });
        expect(await row.textContent()).toMatch(/viewer\s*olga@shop\.dk \(owner\)/);
        await expectUsable(owner, `staff with a waiting invitation ${viewport.width}`);
        await screenshot(owner, `admin-staff-waiting-${viewport.width}`);

        await row.getByRole('link', { name: `Withdraw the invitation for ${email}` }).click();
        await owner.waitForURL(/\/withdraw$/);
        expect(await owner.locator('main').textContent()).toContain('The link stops working at once');
        await expectUsable(owner, `withdraw ${viewport.width}`);
        await screenshot(owner, `admin-staff-withdraw-${viewport.width}`);
        await owner.getByRole('button', { name: 'Withdraw the invitation' }).click();
        expect(await owner.getByRole('status').textContent()).toContain(`The invitation for ${email} was withdrawn`);
        expect(await owner.getByRole('region', { name: 'Waiting invitations' }).textContent()).not.toContain(email);

        await invited.goto(`${shop.origin()}${new URL(link).pathname}`);
        expect(await invited.getByRole('heading', { level: 1 }).textContent()).toBe('This invitation link does not work');
        expect(await invited.getByRole('alert').textContent()).toContain('Ask the shop owner for a new invitation link.');
        await expectUsable(invited, `withdrawn link ${viewport.width}`);
        await screenshot(invited, `admin-invite-withdrawn-${viewport.width}`);
      } finally {
        await invited.close();
        await owner.close();
      }
    }
  }, 120_000);

  it('changes one\'s own password on the account page, at 1440 and 375 px', async () => {
    for (const viewport of WIDTHS) {
      const page = await shop.signedIn('mads.with.a.rather.long.address@shop.dk', viewport);
      try {
        await page.getByRole('link', { name: 'Your account' }).click();
        await page.waitForURL(/\/admin\/account$/);
        await expectAccessible(page, `account ${viewport.width}`);
        await expectNoHorizontalScroll(page, `account ${viewport.width}`);
        await screenshot(page, `admin-account-${viewport.width}`);
        await page.getByLabel('Current password').fill('correct horse battery staple');
        await page.getByLabel('New password (at least 12 characters)').fill(NEW_PASSWORD);
        await page.getByLabel('The new password again').fill(NEW_PASSWORD);
        await page.getByRole('button', { name: 'Change the password' }).click();
        await page.waitForURL(/changed=1/);
        expect(await page.getByRole('status').textContent()).toContain('Your password was changed.');
        // Back to the first password for the next width.
        await page.getByLabel('Current password').fill(NEW_PASSWORD);
        await page.getByLabel('New password (at least 12 characters)').fill('correct horse battery staple');
        await page.getByLabel('The new password again').fill('correct horse battery staple');
        await page.getByRole('button', { name: 'Change the password' }).click();
        await page.waitForURL(/changed=1/);
      } finally {
        await page.close();
      }
    }
  });
});
