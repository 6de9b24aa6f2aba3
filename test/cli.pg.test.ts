import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAuthenticator } from '../src/access/authenticate.ts';
import { main } from '../src/cli.ts';
import { publishedSigningKeys } from '../src/ucp/signatures/signing-keys.ts';
import { runButik } from './helpers/butik-process.ts';
import { processDatabase } from './helpers/process-db.ts';
import type { ProcessDatabase } from './helpers/process-db.ts';

const KEY = /^bk_[A-Za-z0-9_-]{43,}$/;
const quiet = { info() {}, warn() {}, error() {} };

let store: ProcessDatabase;
beforeAll(async () => { store = await processDatabase(); });
afterAll(async () => { await store?.drop(); });

const butik = (...args: string[]) => runButik(args, { ...store.env, LOG_LEVEL: 'silent' });

/** Whether the key authenticates against the CLI's database, checked in this process once the CLI has exited. */
async function authenticates(key: string): Promise<boolean> {
  const database = await store.open();
  try {
    const authenticator = createAuthenticator({ db: database.db, masterKey: 'x'.repeat(40), clock: () => new Date(), log: quiet });
    return (await authenticator.authenticate(key)).ok;
  } finally {
    await database.close();
  }
}

describe('butik signing-keys (UCP signing keys)', () => {
  it('rotates to a new key that is published first, keeps the old one published, and retires one on request', async () => {
    const first = await butik('signing-keys', 'rotate');
    expect(first.code, first.stderr).toBe(0);
    const second = await butik('signing-keys', 'rotate');
    const [old, current] = [JSON.parse(first.stdout).kid, JSON.parse(second.stdout).kid];
    expect(current).toMatch(/^butik-/);
    const published = async () => {
      const database = await store.open();
      try {
        return (await publishedSigningKeys(database.db)).map((key) => key.kid);
      } finally {
        await database.close();
      }
    };
    expect(await published()).toEqual([current, old]);
    // The old key stays published for the grace period after its successor took over, unless compromised.
    const early = await butik('signing-keys', 'retire', old);
    expect(early.code).toBe(1);
    expect(early.stderr).toMatch(new RegExp(`${old} stays published until .*seven days after ${current} took over`));
    const retired = await butik('signing-keys', 'retire', old, '--compromised');
    expect(retired.code, retired.stderr).toBe(0);
    expect(await published()).toEqual([current]);
    const again = await butik('signing-keys', 'retire', old);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/no published signing key/);
    expect((await butik('signing-keys', 'retire')).code).toBe(2);
  }, 60_000); // six butik processes, one after the other
});

describe('butik keys (offline)', () => {
  let created: { id: string; key: string; prefix: string };

  it('creates a key, prints it once as JSON and warns to store it', async () => {
    const run = await butik('keys', 'create', '--name', 'CLI agent', '--scopes', 'catalog:read, products:write', '--expires', '2099-01-01T00:00:00Z');
    expect(run.code, run.stderr).toBe(0);
    created = JSON.parse(run.stdout);
    expect(Object.keys(created).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'key', 'name', 'prefix', 'scopes']);
    expect(created).toMatchObject({ name: 'CLI agent', scopes: ['catalog:read', 'products:write'], expiresAt: '2099-01-01T00:00:00.000Z' });
    expect(created.key).toMatch(KEY);
    expect(run.stderr).toMatch(/shown only once/);
    expect(await authenticates(created.key)).toBe(true);
  });

  it('lists keys without their secrets', async () => {
    const run = await butik('keys', 'list');
    expect(run.code, run.stderr).toBe(0);
    const listed = JSON.parse(run.stdout);
    expect(listed).toEqual([expect.objectContaining({ id: created.id, prefix: created.prefix, revokedAt: null })]);
    expect(Object.keys(listed[0]).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'lastUsedAt', 'name', 'prefix', 'revokedAt', 'scopes']);
    expect(run.stdout).not.toContain(created.key);
  });

  it('rotates a key: a new secret for the same id, the old one dead', async () => {
    const run = await butik('keys', 'rotate', created.id);
    expect(run.code, run.stderr).toBe(0);
    const rotated = JSON.parse(run.stdout);
    expect(rotated.id).toBe(created.id);
    expect(rotated.key).toMatch(KEY);
    expect(rotated.key).not.toBe(created.key);
    expect(await authenticates(created.key)).toBe(false);
    expect(await authenticates(rotated.key)).toBe(true);
    created = rotated;
  });

  it('revokes a key', async () => {
    const run = await butik('keys', 'revoke', created.id);
    expect(run.code, run.stderr).toBe(0);
    const revoked = JSON.parse(run.stdout);
    expect(revoked.id).toBe(created.id);
    expect(revoked.revokedAt).toMatch(/Z$/);
    expect(await authenticates(created.key)).toBe(false);
  });

  it('exits 1 with a message for an unknown key id', async () => {
    const run = await butik('keys', 'rotate', 'no-such-id');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/No active API key with id "no-such-id"/);
  });
});

/** Runs the CLI's main() in this process (no start-up cost) and restores the exit code it sets. */
async function mainInProcess(...argv: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const out = vi.spyOn(console, 'log').mockImplementation(() => {});
  const err = vi.spyOn(console, 'error').mockImplementation(() => {});
  const saved = process.exitCode;
  try {
    process.exitCode = 0;
    await main(argv);
    return {
      exitCode: Number(process.exitCode ?? 0),
      stdout: out.mock.calls.map((call) => call.join(' ')).join('\n'),
      stderr: err.mock.calls.map((call) => call.join(' ')).join('\n'),
    };
  } finally {
    process.exitCode = saved;
    out.mockRestore();
    err.mockRestore();
  }
}

describe('butik usage errors exit 2 before touching the database', () => {
  it('exits 2 naming an unknown scope (spawned: the real exit status)', async () => {
    const run = await butik('keys', 'create', '--name', 'x', '--scopes', 'catalog:read,root:all');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--scopes: unknown scope "root:all"/);
  });

  const cases: Array<[string[], RegExp]> = [
    [['keys', 'create', '--name', 'x', '--scopes', 'catalog:read', '--expires', 'next week'], /--expires/],
    [['keys', 'create', '--scopes', 'catalog:read'], /--name/],
    [['keys', 'create', '--name', 'x'], /--scopes/],
    [['keys', 'revoke'], /butik keys revoke ID/],
    [['keys', 'rotate'], /butik keys rotate ID/],
    [['keys', 'create', '--nme', 'x'], /--nme/],
    [['keys', 'shred'], /Usage: butik/],
  ];
  for (const [argv, message] of cases) {
    it(`butik ${argv.join(' ')} → exit 2, ${String(message)}`, async () => {
      const run = await mainInProcess(...argv);
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
    });
  }

  it('prints usage: exit 0 for help, 2 for an unknown command', async () => {
    const help = await mainInProcess('help');
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/Usage: butik/);
    const unknown = await mainInProcess('frobnicate');
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/^unknown command "frobnicate"\n\nUsage: butik/);
  });

  it('refuses a key that would be born expired', async () => {
    const run = await mainInProcess('keys', 'create', '--name', 'x', '--scopes', 'catalog:read', '--expires', '2001-01-01T00:00:00Z');
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/^--expires: must lie in the future\n?$/);
  });
});

describe('butik says why it cannot open the database', () => {
  it('names a refused PostgreSQL connection and exits 1', async () => {
    const run = await runButik(['migrate'], { DATABASE_URL: 'postgres://postgres:secret-pw@127.0.0.1:1/butik', LOG_LEVEL: 'silent' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('cannot connect to PostgreSQL at 127.0.0.1:1: connection refused');
    expect(run.stderr).not.toContain('secret-pw');
    expect(run.stderr).not.toContain('Failed query');
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('names a database that does not exist and how to create it', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL ?? '');
    url.pathname = '/butik_no_such_database';
    const run = await runButik(['keys', 'list'], { DATABASE_URL: url.toString(), LOG_LEVEL: 'silent' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('database "butik_no_such_database" does not exist — create it with createdb butik_no_such_database');
  });

  it.skipIf(store?.kind === 'postgres' || Boolean(process.env.TEST_DATABASE_URL))(
    'refuses a second process on an embedded data directory that a running process holds', async () => {
      const holder = await store.open();
      try {
        const run = await butik('keys', 'create', '--name', 'lost', '--scopes', 'catalog:read');
        expect(run.code).toBe(1);
        expect(run.stdout).toBe('');
        expect(run.stderr).toContain(`is in use by process ${process.pid}`);
      } finally {
        await holder.close();
      }
      const after = await butik('keys', 'list');
      expect(after.code, after.stderr).toBe(0);
    });
});
