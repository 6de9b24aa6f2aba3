import type { InjectOptions } from 'fastify';
import { expect } from 'vitest';
import { PROBLEMS } from '../../src/errors/problems.ts';
import type { ProblemCode } from '../../src/errors/problems.ts';
import type { CallResult, TestApp } from './app.ts';
import { BASE_URL } from './app.ts';

/** Any request through fastify.inject, for the cases t.call cannot express (methods, content types, raw bodies). */
export async function send(t: TestApp, options: InjectOptions): Promise<CallResult> {
  const response = await t.app.inject(options);
  const type = String(response.headers['content-type'] ?? '');
  return {
    status: response.statusCode,
    headers: response.headers,
    body: /json/.test(type) && response.body ? JSON.parse(response.body) : response.body,
  };
}

/**
 * Asserts the whole problem (docs/behaviour.md#errors): status, media type, every member, the legacy ok/error pair,
 * and that X-Request-Id names the same request as `instance`.
 */
export function expectProblem(response: CallResult, status: number, code: ProblemCode): void {
  expect({ status: response.status, code: response.body?.code }).toEqual({ status, code });
  expect(String(response.headers['content-type'])).toMatch(/^application\/problem\+json/);
  const requestId = response.headers['x-request-id'];
  expect(typeof requestId).toBe('string');
  expect(response.body).toMatchObject({
    type: `${BASE_URL}/problems/${code}`,
    title: PROBLEMS[code].title,
    status,
    instance: `urn:butik:request:${String(requestId)}`,
    code,
    resolution: PROBLEMS[code].resolution,
    ok: false,
    error: { code, message: response.body.detail },
  });
  expect(typeof response.body.detail).toBe('string');
  expect(response.body.detail.length).toBeGreaterThan(0);
  // The extension members some codes add (docs/behaviour.md#problem-members-an-agent-can-act-on); nothing else may appear.
  const extensions = ['errors', 'reason', 'legalNextStatuses', 'shortLines', 'auditEntryId', 'current'];
  const members = Object.keys(response.body).filter((key) => !extensions.includes(key)).sort();
  expect(members).toEqual(['code', 'detail', 'error', 'instance', 'ok', 'resolution', 'status', 'title', 'type']);
}

/** A validation failure whose errors[] names exactly these paths (in any order). */
export function expectValidation(response: CallResult, paths: string[]): void {
  expectProblem(response, 400, 'validation_failed');
  const errors: Array<{ path: string; message: string }> = response.body.errors;
  expect(Array.isArray(errors)).toBe(true);
  for (const error of errors) {
    expect(Object.keys(error).sort()).toEqual(['message', 'path']);
    expect(error.message.length).toBeGreaterThan(0);
  }
  expect([...new Set(errors.map((e) => e.path))].sort()).toEqual([...paths].sort());
}

export const CHALLENGE = 'Bearer realm="butik"';
export const INVALID_TOKEN_CHALLENGE = 'Bearer realm="butik", error="invalid_token"';
/** On /api/mcp, the challenge's parameters are followed by the RFC 9728 address OAuth clients discover the server from. */
const RESOURCE_METADATA = 'resource_metadata="http://butik.test/.well-known/oauth-protected-resource/api/mcp"';
export const MCP_CHALLENGE = `${CHALLENGE}, ${RESOURCE_METADATA}`;
export const MCP_INVALID_TOKEN_CHALLENGE = `${INVALID_TOKEN_CHALLENGE}, ${RESOURCE_METADATA}`;
export const scopeChallenge = (scope: string) => `Bearer realm="butik", error="insufficient_scope", scope="${scope}"`;
