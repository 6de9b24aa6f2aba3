import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveMasterKey } from '../../src/access/master-key.ts';
import { openDatabase } from '../../src/db/client.ts';

const root = mkdtempSync(join(tmpdir(), 'butik-data-dir-'));
afterAll(() => { rmSync(root, { recursive: true, force: true }); });

/** Every entry under `dir` (itself included) whose mode lets group or others in, as "mode path". */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const pending = [dir];
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    const stat = lstatSync(path);
    if (stat.isDirectory()) pending.push(...readdirSync(path).map((name) => join(path, name)));
    if ((stat.mode & 0o077) !== 0) found.push(`${(stat.mode & 0o777).toString(8)} ${path}`);
  }
  return found;
}

const modeOf = (path: string) => (lstatSync(path).mode & 0o777).toString(8);

// A real PGlite cluster is written to disk twice per test: slower than the suite's default allowance.
describe('the embedded data directory', { timeout: 120_000 }, () => {
  it('is created 0700 with every file of the database and the master key owner-only', async () => {
    const dataDir = join(root, 'fresh');
    const database = await openDatabase({ dataDir });
    await database.migrate();
    resolveMasterKey(undefined, dataDir);
    expect(database.loosenedEntries).toBe(0);
    await database.close();
    expect(modeOf(dataDir)).toBe('700');
    expect(modeOf(join(dataDir, 'pgdata'))).toBe('700');
    expect(modeOf(join(dataDir, 'master.key'))).toBe('600');
    expect(readdirSync(join(dataDir, 'pgdata')).length).toBeGreaterThan(5);
    expect(openToOthers(dataDir)).toEqual([]);
  });

  it('takes group and other permissions off an existing 0755 directory with 0666 files at start, and counts them', async () => {
    const dataDir = join(root, 'loose');
    const first = await openDatabase({ dataDir });
    await first.close();
    // What an earlier Butik left behind: the directories 0755, the files 0666.
    const pending = [dataDir];
    for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
      if (lstatSync(path).isDirectory()) {
        pending.push(...readdirSync(path).map((name) => join(path, name)));
        chmodSync(path, 0o755);
      } else {
        chmodSync(path, 0o666);
      }
    }
    mkdirSync(join(dataDir, 'extra'), { mode: 0o755 });
    writeFileSync(join(dataDir, 'extra', 'note.txt'), 'left by hand', { mode: 0o644 });
    chmodSync(join(dataDir, 'extra', 'note.txt'), 0o644);
    const loose = openToOthers(dataDir).length;
    expect(loose).toBeGreaterThan(10);

    const reopened = await openDatabase({ dataDir });
    expect(reopened.loosenedEntries).toBe(loose);
    await reopened.close();
    expect(openToOthers(dataDir)).toEqual([]);
    expect(modeOf(dataDir)).toBe('700');
    expect(modeOf(join(dataDir, 'extra', 'note.txt'))).toBe('600');
  });
});
