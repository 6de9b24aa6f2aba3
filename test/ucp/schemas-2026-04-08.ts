import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';

/**
 * The UCP 2026-04-08 schemas vendored under test/fixtures/ucp-schemas/2026-04-08 (see its NOTICE.md), loaded into
 * one Ajv (JSON Schema 2020-12, with formats) so that relative $refs resolve by their $id as in the spec repo.
 */
const ROOT = join(import.meta.dirname, '..', 'fixtures', 'ucp-schemas', '2026-04-08');
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

// The spec's own annotation keywords (ucp_request, name) are not JSON Schema vocabulary: strict mode off.
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return entry.name.endsWith('.json') ? [path] : [];
  });
}
for (const file of files(ROOT)) ajv.addSchema(JSON.parse(readFileSync(file, 'utf8')) as object);

const ID = 'https://ucp.dev/';

/** Asserts `body` is valid against a schema named by its path under source/ and an optional fragment. */
export function expectValid(schema: string, body: unknown): void {
  const validate = ajv.getSchema(`${ID}${schema}`);
  if (!validate) throw new Error(`no schema ${schema} under ${relative(process.cwd(), ROOT)}`);
  const valid = validate(body);
  expect(valid ? [] : validate.errors, JSON.stringify(body).slice(0, 2000)).toEqual([]);
}
