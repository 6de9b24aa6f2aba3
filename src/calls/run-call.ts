import { callerId } from '../access/actor.ts';
import type { Actor } from '../access/actor.ts';
import { asToolError, problemFor } from '../errors/to-problem.ts';
import type { Problem } from '../errors/to-problem.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { Log } from '../log.ts';
import type { Channel } from '../context.ts';
import { executeTool, prepareCall } from '../tools/invoke.ts';
import { HeldApprovalShape } from '../policies/approvals.ts';
import type { HeldApproval } from '../policies/approvals.ts';
import { z } from 'zod';
import type { ToolRuntime } from '../tools/invoke.ts';
import type { RegisteredTool } from '../tools/registry.ts';
import type { Warning } from '../schema/warning.ts';
import { runIdempotent } from './idempotency.ts';
import { policyHold } from './policy-stage.ts';
import type { StoredAnswer } from './idempotency.ts';

export type { HeldApproval };

/** The body of a held call (202), and the structuredContent of its MCP result: every write tool's output schema admits it. */
export const HeldAnswer = z.strictObject({
  pending: z.literal(true).meta({ description: 'A policy held the call: nothing was written; a person approves or denies it.' }),
  approval: HeldApprovalShape,
});

export type CallRequest = {
  runtime: ToolRuntime;
  tool: RegisteredTool;
  actor: Actor;
  input: Record<string, unknown>;
  channel: Channel;
  /** The request id that a failure's `instance` names. */
  requestId: string;
  log: Log;
  idempotencyKey: string | undefined;
  /** If-Match / _meta["butik/ifMatch"], parsed (if-match.ts); undefined for an unconditional call. */
  ifMatch?: readonly string[];
};

export type CallAnswer =
  | { ok: true; status: number; result: unknown; warnings?: Warning[]; pending?: undefined; /** The record's version token, unquoted. */ etag?: string }
  /** A policy held the call: nothing was written, a person decides (202). */
  | { ok: true; status: 202; pending: true; approval: HeldApproval; etag?: undefined }
  | { ok: false; status: number; problem: Problem; retryAfter?: number };

export type CallOutcome = CallAnswer & {
  replayed: boolean;
  /** The REST body text, when it already exists because idempotency stored or replayed it. */
  text?: string;
};

/**
 * One tool call as both transports answer it, as a value: each transport serialises only what it sends. The
 * stages: authorisation, validation, the policy stage (a held call answers 202 pending), the handler.
 * REST and MCP store the same text under an idempotency key, so they share one key space per caller
 * (docs/behaviour.md#safe-retries). Every failure, an idempotency conflict included, comes back as a problem answer.
 */
export async function runCall(call: CallRequest): Promise<CallOutcome> {
  const answer = async (): Promise<CallAnswer> => {
    try {
      const prepared = prepareCall({
        tool: call.tool, input: call.input, actor: call.actor, channel: call.channel, log: call.log,
        ...(call.ifMatch !== undefined ? { ifMatch: call.ifMatch } : {}),
      });
      const approval = await policyHold(call.runtime, { ...prepared, rawInput: call.input, idempotencyKey: call.idempotencyKey });
      if (approval) return { ok: true, status: 202, pending: true, approval };
      const { result, warnings, etag } = await executeTool(call.runtime, prepared);
      return { ok: true, status: 200, result, ...(warnings.length > 0 ? { warnings } : {}), ...(etag !== undefined ? { etag } : {}) };
    } catch (error) {
      return problemAnswer(call, error);
    }
  };
  if (call.idempotencyKey === undefined) return { ...await answer(), replayed: false };
  try {
    return await runIdempotent(call.runtime.db, {
      caller: callerId(call.actor),
      key: call.idempotencyKey,
      tool: call.tool.name,
      body: call.input,
      now: call.runtime.clock(),
    }, async () => {
      const done = await answer();
      return { ...done, text: answerText(done) };
    }, restoreAnswer);
  } catch (error) {
    return { ...problemAnswer(call, error), replayed: false };
  }
}

/**
 * The REST body of an answer: `{"ok":true,"result":…}` (with `warnings` beside the result when there are
 * any) or the problem. Idempotency stores exactly this.
 */
export function answerText(answer: CallAnswer): string {
  if (!answer.ok) return JSON.stringify(answer.problem);
  if (answer.pending) return JSON.stringify({ ok: true, pending: true, approval: answer.approval });
  return JSON.stringify(answer.warnings ? { ok: true, result: answer.result, warnings: answer.warnings } : { ok: true, result: answer.result });
}

export function problemAnswer(
  call: Pick<CallRequest, 'runtime' | 'requestId' | 'log' | 'channel'>,
  error: unknown,
): Extract<CallAnswer, { ok: false }> {
  const toolError = loggedToolError(call.log, error);
  const problem = problemFor(toolError, { baseUrl: call.runtime.baseUrl, requestId: call.requestId, channel: call.channel });
  return { ok: false, status: problem.status, problem, retryAfter: toolError.extras.retryAfter };
}

/** Unknown errors are logged here with the request's logger and leave as internal_error (docs/architecture.md#rest-post-apiv1toolsname). */
export function loggedToolError(log: Log, error: unknown): ToolError {
  const toolError = asToolError(error);
  if (!(error instanceof ToolError)) log.error({ err: error }, 'tool call failed');
  return toolError;
}

function restoreAnswer(stored: StoredAnswer): CallAnswer & StoredAnswer {
  const value: unknown = JSON.parse(stored.text);
  if (stored.status >= 400) return { ok: false, status: stored.status, problem: value as Problem, text: stored.text };
  const body = typeof value === 'object' && value !== null ? value as { result?: unknown; warnings?: Warning[]; pending?: true; approval?: HeldApproval } : {};
  if (body.pending && body.approval) return { ok: true, status: 202, pending: true, approval: body.approval, text: stored.text };
  return { ok: true, status: stored.status, result: body.result, ...(body.warnings ? { warnings: body.warnings } : {}), text: stored.text };
}
