import type { FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Actor } from '../access/actor.ts';
import { loggedToolError, runCall } from '../calls/run-call.ts';
import type { CallOutcome } from '../calls/run-call.ts';
import { ownerCommand } from '../commands/registry.ts';
import { problemFor } from '../errors/to-problem.ts';
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
  options: CallOptions = {},
): Promise<ConsoleOutcome> {
  const tool = deps.registry.get(name);
  if (!tool) throw new Error(`the console calls ${name}, which is not registered`);
  const outcome = await runCall({
    runtime: deps.runtime, tool, actor, input, channel: 'admin', requestId: request.id, log: request.log, idempotencyKey,
    ...(options.ifMatch !== undefined ? { ifMatch: [options.ifMatch] } : {}),
  });
  // People in the console are the approvers: the policy stage never holds their calls.
  if (outcome.ok && outcome.pending) throw new Error(`the console's call of ${name} was held by a policy`);
  return outcome;
}

export type CallOptions = {
  /** The version token the form was rendered from (a read's etag): the write refuses with 412 when the record changed since. */
  ifMatch?: string | undefined;
};

/** A console call's outcome: never a held one. */
export type ConsoleOutcome = Exclude<CallOutcome, { pending: true }>;

export type CommandOutcome = { ok: true; result: unknown } | { ok: false; problem: Problem };

/**
 * One owner command (commands/), for what is the owner's alone and no tool: run as the signed-in person on the
 * admin channel, so the entries it audits name them. The page checks that the person is an owner first.
 */
export async function runOwnerCommand(deps: AppDeps, request: FastifyRequest, actor: Actor, name: string, input: Record<string, unknown>): Promise<CommandOutcome> {
  const command = ownerCommand(name);
  if (!command) throw new Error(`the console runs ${name}, which is not an owner command`);
  try {
    return { ok: true, result: await command.execute(deps.runtime.db, input, { now: deps.runtime.clock(), actor, channel: 'admin', runtime: deps.runtime }) };
  } catch (error) {
    return { ok: false, problem: problemFor(loggedToolError(request.log, error), { baseUrl: deps.baseUrl, requestId: request.id, channel: 'admin' }) };
  }
}

/** A read the page cannot do without: a refusal becomes an error the console's error page shows. */
export async function readTool<T>(deps: AppDeps, request: FastifyRequest, actor: Actor, name: string, input: Record<string, unknown>): Promise<T> {
  const outcome = await callTool(deps, request, actor, name, input);
  if (!outcome.ok) throw new ConsoleRefusal(refusalOf(outcome.problem));
  return outcome.result as T;
}

/** A read of one record with the version token its tool hands out (the ETag of REST), for a form to carry back. */
export async function readVersioned<T>(deps: AppDeps, request: FastifyRequest, actor: Actor, name: string, input: Record<string, unknown>): Promise<{ record: T; version: string }> {
  const outcome = await callTool(deps, request, actor, name, input);
  if (!outcome.ok) throw new ConsoleRefusal(refusalOf(outcome.problem));
  if (outcome.etag === undefined) throw new Error(`the console reads ${name} for a version token, and it hands out none`);
  return { record: outcome.result as T, version: outcome.etag };
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
