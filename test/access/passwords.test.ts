import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PASSWORD_COST, hashPassword, useTestPasswordCost, verifyPassword } from '../../src/access/passwords.ts';

describe('password hashing', () => {
  it('hashes at N=2^15, r=8, p=1 outside the test suite', () => {
    expect(PASSWORD_COST).toEqual({ N: 32768, r: 8, p: 1 });
  });

  it('refuses the test cost outside vitest, so no server can run with it', () => {
    const before = process.env.VITEST;
    delete process.env.VITEST;
    try {
      expect(() => useTestPasswordCost()).toThrow('the test password cost is for the vitest suite only');
    } finally {
      process.env.VITEST = before;
    }
  });

  it('stores the cost with the hash and verifies against it, so a hash of another cost still verifies', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$1024\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse battery!', stored)).toBe(false);
    // A hash made at the production cost verifies just the same.
    const salt = randomBytes(16);
    const key = scryptSync('correct horse battery', salt, 32, { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const production = ['scrypt', 32768, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
    expect(await verifyPassword('correct horse battery', production)).toBe(true);
    expect(await verifyPassword('correct horse battery!', production)).toBe(false);
  });
});
