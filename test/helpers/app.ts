import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { buildApp } from '../../src/app.ts';
import { PROBLEM_CODES } from '../../src/errors/problems.ts';
import type { AppOptions } from '../../src/app.ts';
import { createKey } from '../../src/access/api-keys.ts';
import type { Scope } from '../../src/access/scopes.ts';
import { loadConfig } from '../../src/config.ts';
import type { Config } from '../../src/config.ts';
import { openDatabase } from '../../src/db/client.ts';
import type { Database, DatabaseOptions } from '../../src/db/client.ts';

export const MASTER_KEY = 'test-master-key-0123456789abcdefghijklmnop';
export const BASE_URL = 'http://butik.test';

export type TestApp = {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** A fresh key holding exactly these scopes. */
  keyWith(...scopes: Scope[]): Promise<string>;
  /** POST /api/v1/tools/<name> through fastify.inject. */
  call(tool: string, body: unknown, options?: CallOptions): Promise<CallResult>;
  close(): Promise<void>;
};

export type CallOptions = { key?: string; headers?: Record<string, string>; ip?: string };
export type CallResult = {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  // Tests read arbitrary members of responses; the schema tests check shapes.
  body: any;
};

/**
 * A database of its own for one test file: in-memory PGlite, or a fresh schema on TEST_DATABASE_URL
 * (dropped again on close). A PostgreSQL that does not answer fails the test; it is never skipped.
 */
export type TestDatabaseOptions = Pick<DatabaseOptions, 'poolSize' | 'statementTimeoutMs' | 'acquireTimeoutMs' | 'applicationName'> & {
  /** Connect through this URL (a relay the test controls) instead of TEST_DATABASE_URL; the schema is still cleaned up directly. */
  via?: string;
};

export async function openTestDatabase(options: TestDatabaseOptions = {}): Promise<{ database: Database; drop(): Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const database = await openDatabase({});
    await database.migrate();
    return { database, drop: () => database.close() };
  }
  const schemaName = `t_${randomBytes(6).toString('hex')}`;
  const { via, ...pool } = options;
  const database = await openDatabase({ url: via ?? url, schemaName, poolSize: 20, ...pool });
  await database.migrate();
  return {
    database,
    async drop() {
      if (!via) {
        await database.db.execute(`drop schema if exists "${schemaName}" cascade`);
        await database.close();
        return;
      }
      // The relay may be cut by now: clean up over a direct connection.
      await database.close().catch(() => {});
      const direct = await openDatabase({ url, poolSize: 1 });
      try {
        await direct.db.execute(`drop schema if exists "${schemaName}" cascade`);
      } finally {
        await direct.close();
      }
    },
  };
}

/**
 * Every response a test sees is checked against the documented shapes: a success against the tool's exact
 * output schema, a failure against the problem shape (docs/behaviour.md#errors).
 */
function assertContract(app: FastifyInstance, toolName: string, response: CallResult): void {
  if (response.status === 200) {
    const tool = app.butik.registry.get(toolName);
    if (!tool) throw new Error(`200 for unknown tool ${toolName}`);
    if (!SuccessEnvelope.safeParse(response.body).success) throw new Error(`bad success envelope: ${JSON.stringify(response.body)}`);
    const parsed = tool.output.safeParse(response.body.result);
    if (!parsed.success) throw new Error(`${toolName} result violates its output schema: ${parsed.error.message}`);
    return;
  }
  if (response.status === 202) {
    if (!HeldEnvelope.safeParse(response.body).success) throw new Error(`bad held answer: ${JSON.stringify(response.body)}`);
    return;
  }
  const problem = ProblemShape.safeParse(response.body);
  if (!problem.success) throw new Error(`bad problem body (${response.status}): ${JSON.stringify(response.body)}`);
  if (problem.data.status !== response.status || !String(response.headers['content-type']).startsWith('application/problem+json')) {
    throw new Error(`problem status/content-type mismatch: ${response.status} ${String(response.headers['content-type'])}`);
  }
}

/** `{ok: true, result}`, and `warnings` only when there is at least one (docs/behaviour.md#warnings). */
const SuccessEnvelope = z.strictObject({
  ok: z.literal(true),
  result: z.unknown(),
  warnings: z.array(z.strictObject({ code: z.string().min(1), message: z.string().min(1) })).min(1).optional(),
});

/** A call a policy held (docs/behaviour.md#a-held-call). */
const HeldEnvelope = z.strictObject({
  ok: z.literal(true),
  pending: z.literal(true),
  approval: z.strictObject({
    id: z.string().min(1), status: z.literal('pending'), url: z.string().startsWith(`${BASE_URL}/admin/approvals/`),
    expiresAt: z.iso.datetime(), reason: z.string().min(1),
  }),
});

const ProblemShape = z.object({
  type: z.string().startsWith(`${BASE_URL}/problems/`),
  title: z.string().min(1),
  status: z.int(),
  detail: z.string().min(1),
  instance: z.string().regex(/^urn:butik:request:.+/),
  code: z.enum(PROBLEM_CODES),
  resolution: z.string().min(1),
  ok: z.literal(false),
  error: z.strictObject({ code: z.enum(PROBLEM_CODES), message: z.string() }),
}).refine((p) => p.error.code === p.code && p.error.message === p.detail && p.type.endsWith(`/${p.code}`));

export type TestAppOptions = Partial<Omit<AppOptions, 'config' | 'database' | 'masterKey'>> & {
  env?: Record<string, string>;
  db?: TestDatabaseOptions;
};

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const config = loadConfig({
    BASE_URL,
    BUTIK_RATE_LIMITS: 'anon:100000,preauth:100000,key:100000',
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  const { database, drop } = await openTestDatabase(options.db);
  const { env: _env, db: _db, ...appOptions } = options;
  const app = buildApp({ config, database, masterKey: MASTER_KEY, logger: false, ...appOptions });
  await app.ready();
  return {
    app,
    database,
    config,
    async keyWith(...scopes) {
      const created = await createKey(database.db, { name: `test ${scopes.join(' ')}`, scopes }, { actor: { kind: 'cli' }, channel: 'cli', at: new Date() });
      return created.key;
    },
    async call(tool, body, callOptions = {}) {
      const response = await app.inject({
        method: 'POST',
        url: `/api/v1/tools/${tool}`,
        headers: {
          'content-type': 'application/json',
          ...(callOptions.key ? { authorization: `Bearer ${callOptions.key}` } : {}),
          ...callOptions.headers,
        },
        ...(callOptions.ip ? { remoteAddress: callOptions.ip } : {}),
        payload: typeof body === 'string' ? body : JSON.stringify(body),
      });
      const result = { status: response.statusCode, headers: response.headers, body: response.body ? JSON.parse(response.body) : undefined };
      assertContract(app, tool, result);
      return result;
    },
    async close() {
      try {
        await app.close();
      } finally {
        await drop();
      }
    },
  };
}

/** A test app listening on a free loopback port, its base URL set to that address (for real HTTP clients). */
export async function listeningTestApp(options: Parameters<typeof createTestApp>[0] = {}): Promise<{ t: TestApp; base: string }> {
  const t = await createTestApp(options);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(t.app.server.address() as import('node:net').AddressInfo).port}`;
  t.app.setBaseUrl(base);
  return { t, base };
}
