import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export type MasterKey = { key: string; generatedAt?: string };

/**
 * BUTIK_MASTER_KEY, or one generated once into BUTIK_DATA_DIR/master.key (mode 0600).
 * The caller logs the path, never the key.
 */
export function resolveMasterKey(configured: string | undefined, dataDir: string): MasterKey {
  if (configured) return { key: configured };
  const path = resolve(join(dataDir, 'master.key'));
  if (existsSync(path)) {
    const key = readFileSync(path, 'utf8').trim();
    if (key.length >= 32) return { key, generatedAt: path };
  }
  // The data directory is the owner's alone (see src/db/data-dir-mode.ts), also when it holds only this file.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = `bk_master_${randomBytes(32).toString('base64url')}`;
  writeFileSync(path, `${key}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return { key, generatedAt: path };
}

/**
 * The master key without making one: BUTIK_MASTER_KEY, or the file a server generated. A CLI command that goes
 * through the running server authenticates with it.
 */
export function readMasterKey(configured: string | undefined, dataDir: string): string | undefined {
  if (configured) return configured;
  const path = resolve(join(dataDir, 'master.key'));
  if (!existsSync(path)) return undefined;
  const key = readFileSync(path, 'utf8').trim();
  return key.length >= 32 ? key : undefined;
}
