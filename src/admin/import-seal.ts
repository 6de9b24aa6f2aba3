import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** What a clean dry run checked: whose check it was, the files byte for byte, and the options. */
export type CheckedImport = {
  staffId: string;
  files: ReadonlyArray<{ name: string; bytes: Buffer }>;
  currency?: string;
  category?: string;
};

export type ImportSeal = {
  /** The seal the dry run's Apply form carries beside the files. */
  seal(check: CheckedImport): string;
  /** Whether `seal` is the one a dry run gave exactly this check. */
  holds(check: CheckedImport, seal: string | undefined): boolean;
};

/**
 * Binds Apply to the files a dry run checked without keeping them on the server: the form carries the files and
 * an HMAC-SHA256 over their names and SHA-256 digests, the options and the person. Its key is derived from the
 * master key, as the session cookie's is, so every instance of a deployment accepts the seal any of them gave,
 * and nobody without the master key can make one for other files.
 */
export function importSeal(masterKey: string): ImportSeal {
  const key = createHmac('sha256', masterKey).update('butik admin import check').digest();
  const seal = (check: CheckedImport) => createHmac('sha256', key).update(JSON.stringify([
    check.staffId, check.currency ?? null, check.category ?? null,
    check.files.map((file) => [file.name, createHash('sha256').update(file.bytes).digest('base64')]),
  ])).digest('base64url');
  return {
    seal,
    holds(check, given) {
      if (given === undefined) return false;
      const wanted = Buffer.from(seal(check));
      const offered = Buffer.from(given);
      return offered.length === wanted.length && timingSafeEqual(offered, wanted);
    },
  };
}
