import type { z } from 'zod';
import { hasScope, isOAuthGrant } from '../access/actor.ts';
import { appendAudit } from '../access/audit-log.ts';
import type { Actor } from '../access/actor.ts';
import type { Db } from '../db/client.ts';
import { unstorableTextErrors } from '../schema/storable-text.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { FieldError } from '../errors/tool-error.ts';
import { VersionedResult } from './define-tool.ts';
import type { AnyTool } from './define-tool.ts';
import type { Warning } from '../schema/warning.ts';
import type { Log } from '../log.ts';
import type { Channel, OrderEventHub, PaymentRefundHub, ToolContext } from '../context.ts';
import type { ApprovalNotice } from '../policies/webhook.ts';

/** What the transports share: built once at start-up. */
export type ToolRuntime = {
  db: Db;
  log: Log;
  clock: () => Date;
  baseUrl: string;
  orderEvents: OrderEventHub;
  paymentRefunds: PaymentRefundHub;
  /** The shop's time zone (BUTIK_TIME_ZONE): where a daily budget's day begins. */
  timeZone: string;
  /** Told of each new pending approval, without waiting (the approvals webhook, when one is configured). */
  approvalHeld?: (notice: ApprovalNotice) => void;
};

export type ToolCall = {
  tool: AnyTool;
  input: unknown;
  actor: Actor;
  channel: Channel;
  log?: Log;
  /** The version tokens a write is conditional on (ToolContext.ifMatch). */
  ifMatch?: readonly string[];
};

/**
 * docs/behaviour.md#order-of-checks: anonymous callers of a private tool get 401, keys without the scope 403,
 * before anything about the request body is looked at.
 */
export function authorizeTool(tool: AnyTool, actor: Actor): void {
  if (tool.anonymous) return;
  if (actor.kind === 'anonymous') {
    throw new ToolError('unauthorized', `${tool.name} needs an API key with scope ${tool.scope}.`);
  }
  if (!hasScope(actor, tool.scope)) {
    // A connected application cannot get a new key; its owner grants the scope by connecting it again.
    const detail = isOAuthGrant(actor)
      ? `${tool.name} needs scope ${tool.scope}, which this connection was not granted: connect the application again `
        + `and have the shop owner tick ${tool.scope} on the consent page.`
      : `${tool.name} needs scope ${tool.scope}, which this key does not hold.`;
    throw new ToolError('insufficient_scope', detail, {
      scope: tool.scope,
    });
  }
}

/** One entry per offending field; an unknown key is reported at its own path, not at its parent's. */
function fieldErrors(issue: z.core.$ZodIssue): FieldError[] {
  const at = (path: readonly PropertyKey[]) => path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ path: at([...issue.path, key]), message: `Unrecognized key: "${key}"` }));
  }
  return [{ path: at(issue.path), message: issue.message }];
}

/** Validation at the edge: text the database cannot store, then the schema; both → 400 validation_failed. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const unstorable = unstorableTextErrors(input);
  if (unstorable.length > 0) throw fieldsError(unstorable);
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

export function validationError(error: z.ZodError): ToolError {
  return fieldsError(error.issues.flatMap(fieldErrors));
}

function fieldsError(errors: FieldError[]): ToolError {
  const summary = errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ');
  return new ToolError('validation_failed', `Invalid request: ${summary}`, { errors });
}

export type ToolAnswer = { result: unknown; warnings: Warning[]; etag?: string };

/** A call that passed authorisation and validation: what the policy stage judges and the handler runs. */
export type PreparedCall = { tool: AnyTool; input: unknown; actor: Actor; channel: Channel; log?: Log; ifMatch?: readonly string[] };

/** The first stages of every call: the caller may use the tool (401/403), and the input fits its schema (400). */
export function prepareCall(call: ToolCall): PreparedCall {
  authorizeTool(call.tool, call.actor);
  return { ...call, input: parseInput(call.tool.input, call.input) };
}

/**
 * A call a person approved runs as the agent that made it: `precondition` runs first inside the write's
 * transaction (the target must still be as it was at the hold), and its audit entries name the approver.
 */
export type ApprovedRun = {
  approvedBy: string;
  precondition(tx: ToolContext['db']): Promise<void>;
  /** Records the result in the same transaction, so the approval says approved exactly when the write happened. */
  settle(tx: ToolContext['db'], result: unknown): Promise<void>;
};

/** The one execution path of every tool, REST and MCP alike (docs/architecture.md#rest-post-apiv1toolsname). */
export async function invokeTool(runtime: ToolRuntime, call: ToolCall): Promise<ToolAnswer> {
  return executeTool(runtime, prepareCall(call));
}

/** The handler stage: a read on the plain database, a write in one transaction with its audit entries. */
export async function executeTool(runtime: ToolRuntime, call: PreparedCall, approved?: ApprovedRun): Promise<ToolAnswer> {
  const { tool, actor, channel, input } = call;
  const log = call.log ?? runtime.log;
  const contextFor = (db: ToolContext['db']): ToolContext => ({
    db,
    actor,
    channel,
    clock: runtime.clock,
    log,
    baseUrl: runtime.baseUrl,
    orderEvents: runtime.orderEvents,
    paymentRefunds: runtime.paymentRefunds,
    ...(call.ifMatch !== undefined ? { ifMatch: call.ifMatch } : {}),
    audit: (record) => appendAudit(db, { record, actor, channel, tool: tool.name, at: runtime.clock(), approvedBy: approved?.approvedBy }),
  });

  const run = async (ctx: ToolContext) => {
    const answered = await tool.handler(input, ctx);
    if (answered instanceof VersionedResult) return { result: answered.result as unknown, etag: answered.version };
    return { result: answered, etag: typeof tool.version === 'function' ? await tool.version(answered, ctx, input) : undefined };
  };
  // A read that hands out a version from a second statement reads record and version from one snapshot, so the
  // token is that of what it shows; one that reads both in one statement (a VersionedResult) needs no transaction.
  const versionAfter = typeof tool.version === 'function';
  const { result, etag } = tool.annotations.readOnlyHint && !versionAfter && !approved
    ? await run(contextFor(runtime.db))
    : await runtime.db.transaction(async (tx) => {
      await approved?.precondition(tx);
      const done = await run(contextFor(tx));
      await approved?.settle(tx, done.result);
      return done;
    }, tool.annotations.readOnlyHint && !approved ? { isolationLevel: 'repeatable read', accessMode: 'read only' } : undefined);
  return { result, warnings: tool.warnings?.(input) ?? [], ...(etag !== undefined ? { etag } : {}) };
}
