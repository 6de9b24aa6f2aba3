import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listStaff, removeStaff, setStaffRole } from '../../src/access/staff.ts';
import type { StaffAudit } from '../../src/access/staff.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { addPerson } from '../admin/helpers.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => t.close());

const audit = (): StaffAudit => ({ actor: { kind: 'cli' }, channel: 'cli', at: new Date() });
const owners = async () => (await listStaff(t.database.db)).filter((member) => member.role === 'owner').map((member) => member.email);

describe('the shop keeps an owner', () => {
  it('lets exactly one of two owners demoting each other at the same moment through', async () => {
    await addPerson(t.database.db, 'a@shop.dk', 'owner');
    await addPerson(t.database.db, 'b@shop.dk', 'owner');
    const outcomes = await Promise.allSettled([
      setStaffRole(t.database.db, 'a@shop.dk', 'manager', audit()),
      setStaffRole(t.database.db, 'b@shop.dk', 'manager', audit()),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = outcomes.find((outcome) => outcome.status === 'rejected');
    expect(refused?.reason).toMatchObject({ code: 'last_owner' });
    expect(await owners()).toHaveLength(1);
  });

  it('lets exactly one of two owners removing each other at the same moment through', async () => {
    await setStaffRole(t.database.db, 'a@shop.dk', 'owner', audit());
    await setStaffRole(t.database.db, 'b@shop.dk', 'owner', audit());
    const outcomes = await Promise.allSettled([removeStaff(t.database.db, 'a@shop.dk', audit()), removeStaff(t.database.db, 'b@shop.dk', audit())]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(await owners()).toHaveLength(1);
  });
});
