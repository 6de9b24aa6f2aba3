import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { UcpVersion } from '../../src/ucp/core/versions.ts';

const ROOT = join(import.meta.dirname, '..', 'fixtures', 'ucp-schemas');
// ajv-formats is CommonJS; its default export arrives wrapped under TypeScript's NodeNext interop.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    return entry.isDirectory() ? filesUnder(path) : entry.name.endsWith('.json') ? [path] : [];
  });
}

/**
 * The published JSON Schemas of one UCP version (test/fixtures/ucp-schemas), each registered under its file path:
 * the generated schemas of the early releases share `$id`s between request and response files and refer to each
 * other by file name, so the path is what their `$ref`s resolve against. UCP's own annotation keywords
 * (ucp_request, name) are not JSON Schema and are ignored.
 */
function compilerFor(version: UcpVersion) {
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  const base = `https://schemas.test/${version}/`;
  for (const file of filesUnder(join(ROOT, version))) {
    const schema = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    ajv.addSchema({ ...schema, $id: `${base}${relative(join(ROOT, version), file)}` });
  }
  return (path: string) => {
    const validate = ajv.getSchema(`${base}${path}`);
    if (!validate) throw new Error(`no schema ${path} in UCP ${version}`);
    return validate;
  };
}

const compilers = new Map<UcpVersion, ReturnType<typeof compilerFor>>();

/** The schema violations of `data` against `path` (e.g. schemas/shopping/checkout.json#/$defs/x) of that version. */
export function violations(version: UcpVersion, path: string, data: unknown): ErrorObject[] {
  const compile = compilers.get(version) ?? compilerFor(version);
  compilers.set(version, compile);
  const validate = compile(path);
  return validate(data) ? [] : [...(validate.errors ?? [])];
}

/** What each version calls its discovery profile, checkout (with Butik's extensions) and order schemas. */
export const SCHEMAS: Record<UcpVersion, { profile: string; checkout: string[]; order: string }> = {
  '2026-01-11': {
    profile: 'discovery/profile_schema.json',
    checkout: ['schemas/shopping/checkout_resp.json', 'schemas/shopping/fulfillment_resp.json#/$defs/checkout', 'schemas/shopping/discount_resp.json#/$defs/checkout',
      'schemas/shopping/buyer_consent_resp.json#/$defs/checkout'],
    order: 'schemas/shopping/order.json',
  },
  '2026-01-23': {
    // Its root is oneOf platform or business profile, and a full business profile satisfies both: name the one meant.
    profile: 'discovery/profile_schema.json#/$defs/business_profile',
    checkout: ['schemas/shopping/checkout_resp.json', 'schemas/shopping/fulfillment_resp.json#/$defs/checkout', 'schemas/shopping/discount_resp.json#/$defs/checkout',
      'schemas/shopping/buyer_consent_resp.json#/$defs/checkout'],
    order: 'schemas/shopping/order.json',
  },
  '2026-04-08': {
    profile: 'discovery/profile_schema.json#/$defs/business_profile',
    checkout: [
      'schemas/shopping/checkout.json', 'schemas/shopping/fulfillment.json#/$defs/dev.ucp.shopping.checkout',
      'schemas/shopping/discount.json#/$defs/dev.ucp.shopping.checkout', 'schemas/shopping/buyer_consent.json#/$defs/dev.ucp.shopping.checkout',
    ],
    order: 'schemas/shopping/order.json',
  },
};
