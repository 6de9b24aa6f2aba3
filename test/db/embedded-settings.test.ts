import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openDatabase } from '../../src/db/client.ts';
import type { Database } from '../../src/db/client.ts';
import { embeddedSettings } from '../../src/db/embedded-settings.ts';

const SettingRows = z.object({ rows: z.array(z.object({ value: z.string() })).length(1) });

async function setting(database: Database, name: string): Promise<string> {
  const result = SettingRows.parse(await database.db.execute(sql`select current_setting(${name}) as value`));
  return result.rows[0]?.value ?? '';
}

describe('the embedded database', () => {
  let database: Database | undefined;
  afterEach(async () => { await database?.close(); database = undefined; });

  it('starts with buffers for a small shop rather than a server’s defaults', async () => {
    database = await openDatabase({});
    expect(await setting(database, 'shared_buffers')).toBe('8MB');
    expect(await setting(database, 'effective_cache_size')).toBe('64MB');
    expect(await setting(database, 'max_connections')).toBe('4');
  });

  it('derives its settings from the memory budget an operator raises', async () => {
    database = await openDatabase({ embeddedMemoryBytes: 512 * 1024 * 1024 });
    expect(await setting(database, 'shared_buffers')).toBe('64MB');
    expect(await setting(database, 'work_mem')).toBe('32MB');
    expect(await setting(database, 'effective_cache_size')).toBe('512MB');
  });

  it('keeps every size within what PostgreSQL accepts at either end of the range', () => {
    expect(embeddedSettings(16 * 1024 * 1024)).toContain('shared_buffers=2048kB');
    expect(embeddedSettings(64 * 1024 ** 3)).toContain('shared_buffers=4194304kB');
    expect(embeddedSettings(64 * 1024 ** 3)).toContain('max_wal_size=1048576kB');
  });
});
