import type { FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Actor } from '../access/actor.ts';
import { runCall } from '../calls/run-call.ts';
import type { CallOutcome } from '../calls/run-call.ts';
import type { Problem } from '../errors/to-problem.ts';
import type { AppDeps } from '../deps.ts';

export type Refusal = { detail: string; resolution: string; fields: Map<string, string> };

/**
 * One tool call from a form or a page, through the same pipeline as REST and MCP: validation, the role's
 * scopes, idempotency, audit (channel "admin") and problem codes are theirs.
 */
export async function callTool(
  deps: AppDeps,
  request: FastifyRequest,
  actor: Actor,
  name: string,
  input: Record<string, unknown>,
  idempotencyKey?: string,
): Promise<CallOutcome> {
  const tool = deps.registry.get(name);
  if (!tool) throw new Error(`the console calls ${name}, which is not registered`);
  return runCall({
    runtime: deps.runtime, tool, actor, input, channel: 'admin', requestId: request.id, log: request.log, idempotencyKey,
  });
}

/** A read the page cannot do without: a refusal becomes an error the console's error page shows. */
export async function readTool<T>(deps: AppDeps, request: FastifyRequest, actor: Actor, name: string, input: Record<string, unknown>): Promise<T> {
  const outcome = await callTool(deps, request, actor, name, input);
  if (!outcome.ok) throw new ConsoleRefusal(refusalOf(outcome.problem));
  return outcome.result as T;
}

export class ConsoleRefusal extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.detail);
  }
}

/** detail, resolution and each field's message, keyed by the field path the problem names. */
export function refusalOf(problem: Problem): Refusal {
  const fields = new Map<string, string>();
  for (const error of problem.errors ?? []) if (!fields.has(error.path)) fields.set(error.path, error.message);
  return { detail: problem.detail, resolution: problem.resolution, fields };
}

/** A fresh key for a form: sending the same form twice (a double click, a reload) makes the change once. */
export function formKey(): string {
  return randomUUID();
}

/** The key a form carried, when it is one formKey made. */
export function idempotencyKeyOf(body: Record<string, string>): string | undefined {
  const key = body._idem;
  return key && /^[0-9a-f-]{36}$/.test(key) ? key : undefined;
}
