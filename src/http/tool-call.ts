import { callerId } from '../access/actor.ts';
import type { Actor } from '../access/actor.ts';
import { runIdempotent } from '../access/idempotency.ts';
import type { IdempotentOutcome, StoredResponse } from '../access/idempotency.ts';
import { errorForLog } from '../db/errors.ts';
import { asToolError } from '../errors/to-problem.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { Channel, Log } from '../tools/context.ts';
import { invokeTool } from '../tools/invoke.ts';
import type { ToolRuntime } from '../tools/invoke.ts';
import type { RegisteredTool } from '../tools/registry.ts';
import { problemBody } from './problem-reply.ts';

export type ToolCallRequest = {
  runtime: ToolRuntime;
  tool: RegisteredTool;
  actor: Actor;
  input: Record<string, unknown>;
  channel: Channel;
  /** The request id that a failure's `instance` names (CONTRACT §4). */
  requestId: string;
  log: Log;
  idempotencyKey: string | undefined;
};

/**
 * One tool call as both transports answer and store it: the REST status and body text
 * (`{"ok":true,"result":…}` or the problem JSON). Storing the same text from REST and MCP is what
 * lets the two share one idempotency key space per caller (CONTRACT §10, §11). An idempotency
 * conflict is thrown as a ToolError for the transport to report.
 */
export async function runToolCall(call: ToolCallRequest): Promise<IdempotentOutcome> {
  const execute = async (): Promise<StoredResponse> => {
    try {
      const result = await invokeTool(call.runtime, {
        tool: call.tool, input: call.input, actor: call.actor, channel: call.channel, log: call.log,
      });
      return { status: 200, body: JSON.stringify({ ok: true, result }) };
    } catch (error) {
      const toolError = loggedToolError(call.log, error);
      return { ...problemBody(toolError, call.runtime.baseUrl, call.requestId), retryAfter: toolError.extras.retryAfter };
    }
  };
  if (call.idempotencyKey === undefined) return { ...await execute(), replayed: false };
  return runIdempotent(call.runtime.db, {
    caller: callerId(call.actor),
    key: call.idempotencyKey,
    tool: call.tool.name,
    body: call.input,
    now: call.runtime.clock(),
  }, execute);
}

/** Unknown errors are logged here with the request's logger and leave as internal_error. STYLE §6. */
export function loggedToolError(log: Log, error: unknown): ToolError {
  const toolError = asToolError(error);
  if (!(error instanceof ToolError)) log.error({ err: errorForLog(error) }, 'tool call failed');
  return toolError;
}
