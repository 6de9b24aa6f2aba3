import { describe, expect, it } from 'vitest';
import { StaffUsageError, parseStaffArgs } from '../src/staff-command.ts';

describe('butik staff arguments', () => {
  it('reads invite and role like add: an e-mail and --role', () => {
    expect(parseStaffArgs(['invite', 'Anna@Shop.dk', '--role', 'manager'])).toEqual({ action: 'invite', email: 'anna@shop.dk', role: 'manager' });
    expect(parseStaffArgs(['role', 'anna@shop.dk', '--role', 'viewer'])).toEqual({ action: 'role', email: 'anna@shop.dk', role: 'viewer' });
    expect(parseStaffArgs(['add', 'olga@shop.dk', '--role', 'owner'])).toEqual({ action: 'add', email: 'olga@shop.dk', role: 'owner' });
    expect(parseStaffArgs(['remove', 'olga@shop.dk'])).toEqual({ action: 'remove', email: 'olga@shop.dk' });
  });

  it('lists the waiting invitations and withdraws one by its id', () => {
    expect(parseStaffArgs(['invitations'])).toEqual({ action: 'invitations' });
    expect(parseStaffArgs(['cancel-invitation', '0193a5c4-0000-7000-8000-000000000000'])).toEqual({ action: 'cancel-invitation', id: '0193a5c4-0000-7000-8000-000000000000' });
    expect(() => parseStaffArgs(['cancel-invitation'])).toThrow('Give the invitation\'s id (see butik staff invitations): butik staff cancel-invitation ID');
  });

  it('refuses a missing or unknown role, a missing e-mail and an unknown action, naming the usage', () => {
    expect(() => parseStaffArgs(['role', 'anna@shop.dk'])).toThrow(new StaffUsageError('--role must be owner, manager or viewer'));
    expect(() => parseStaffArgs(['invite', 'anna@shop.dk', '--role', 'admin'])).toThrow('--role must be owner, manager or viewer');
    expect(() => parseStaffArgs(['invite', '--role', 'viewer'])).toThrow('Give the person\'s e-mail: butik staff invite EMAIL');
    expect(() => parseStaffArgs(['promote', 'anna@shop.dk'])).toThrow(/staff invite EMAIL --role owner\|manager\|viewer/);
  });
});
