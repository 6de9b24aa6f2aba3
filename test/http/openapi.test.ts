import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBLEM_CODES } from '../../src/errors/problems.ts';
import { createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { send } from '../helpers/http.ts';

type Json = Record<string, any>;

const REDOCLY = resolve('node_modules/.bin/redocly');

let t: TestApp;
let doc: Json;
beforeAll(async () => {
  t = await createTestApp();
  const response = await send(t, { method: 'GET', url: '/api/v1/openapi.json' });
  expect(response.status).toBe(200);
  doc = response.body;
});
afterAll(async () => { await t?.close(); });

describe('GET /api/v1/openapi.json', () => {
  it('validates as OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('passes redocly lint (recommended rules) with no errors', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'butik-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(doc));
      const { stdout } = await promisify(execFile)(REDOCLY, ['lint', file, '--format=json'], {
        cwd: dir,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        maxBuffer: 32 * 1024 * 1024,
      });
      const report = JSON.parse(stdout);
      const errors = report.problems.filter((problem: Json) => problem.severity === 'error');
      expect(errors).toEqual([]);
      expect(report.totals.errors).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('names every problem code, and each has its /problems page', async () => {
    expect(doc.components.schemas.Problem.properties.code.enum).toEqual(PROBLEM_CODES);
    for (const code of PROBLEM_CODES) {
      const page = await send(t, { method: 'GET', url: `/problems/${code}` });
      expect({ code, status: page.status }).toEqual({ code, status: 200 });
    }
  });
});
