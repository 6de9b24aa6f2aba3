import { actorName } from '../access/actor.ts';
import type { Actor } from '../access/actor.ts';
import { Scope } from '../access/scopes.ts';
import { asToolError } from '../errors/to-problem.ts';
import { ToolError } from '../errors/tool-error.ts';
import { approvalById, denyApproval, pendingForDecision, settleApproval, statusAt } from '../policies/approvals.ts';
import type { ApprovalRow } from '../policies/approvals.ts';
import { fingerprintOf, readTarget } from '../policies/targets.ts';
import { executeTool, prepareCall } from '../tools/invoke.ts';
import type { ToolRuntime } from '../tools/invoke.ts';
import { ALL_TOOLS, buildRegistry } from '../tools/registry.ts';
import type { Registry } from '../tools/registry.ts';

let registry: Registry | undefined;
/** Held calls are of the every-shop tools (a policy names only those), so approving needs no app's registry. */
function tools(): Registry {
  return (registry ??= buildRegistry(ALL_TOOLS));
}

/** The names a policy's `tool` rule may name: every write tool (reads are never held). */
export function holdableToolNames(): string[] {
  return ALL_TOOLS.filter((tool) => !tool.annotations.readOnlyHint).map((tool) => tool.name);
}

/** Only people approve: an owner or manager in the console, or the master key (the CLI). Never an agent. */
function assertApprover(actor: Actor): void {
  if (actor.kind === 'master' || actor.kind === 'cli') return;
  if (actor.kind === 'staff' && actor.role !== 'viewer') return;
  throw new ToolError('insufficient_scope', 'Only a person approves or denies a held call: an owner or manager in the console, or the master key.', { scope: 'master' });
}

type StoredAgent = { keyId: string; name: string; scopes: string[]; clientId?: string };

function agentOf(row: ApprovalRow): Extract<Actor, { kind: 'key' }> {
  const stored = row.actor as StoredAgent;
  const scopes = new Set(stored.scopes.flatMap((scope) => (Scope.safeParse(scope).success ? [scope as Scope] : [])));
  return { kind: 'key', keyId: stored.keyId, name: stored.name, scopes, ...(stored.clientId ? { clientId: stored.clientId } : {}) };
}

/**
 * A person approves: the exact held arguments run through the call pipeline's own stages (authorisation and
 * validation as the agent, then the handler in one transaction) with the agent as actor and the person as
 * approver in the audit entries. Inside that transaction the target must still be as it was at the hold,
 * else nothing is written and the approval fails with `conflict`. Any failure is recorded on the approval.
 */
export async function approveHeldCall(runtime: ToolRuntime, id: string, decision: { approver: Actor; note?: string }): Promise<ApprovalRow> {
  assertApprover(decision.approver);
  const by = actorName(decision.approver);
  const now = runtime.clock();
  const row = await approvalById(runtime.db, id);
  const status = statusAt(row, now);
  if (status !== 'pending') throw new ToolError('conflict', `Approval ${id} is ${status}, not pending: it can no longer be approved or denied.`);
  const tool = tools().get(row.tool);
  try {
    if (!tool) throw new ToolError('unknown_tool', `There is no tool named "${row.tool}" any more.`);
    const prepared = prepareCall({ tool, input: row.input, actor: agentOf(row), channel: row.channel });
    await executeTool(runtime, prepared, {
      approvedBy: by,
      async precondition(tx) {
        const locked = await pendingForDecision(tx, id, now);
        const target = await readTarget(tx, tool.name, prepared.input as Record<string, unknown>, true);
        if (fingerprintOf(target) !== locked.fingerprint) {
          throw new ToolError('conflict', `The ${tool.name} call was not run: what it would change was changed since it was held `
            + `(${new Date(locked.createdAt).toISOString()}). Nothing was written; the agent may make the call again.`);
        }
      },
      async settle(tx, result) {
        await settleApproval(tx, id, { status: 'approved', by, note: decision.note, result, now });
      },
    });
  } catch (error) {
    const problem = asToolError(error);
    const failed = { code: problem.code, detail: problem.message };
    // Decided by someone else meanwhile: pendingForDecision says so, and the record stays theirs.
    await runtime.db.transaction(async (tx) => {
      await pendingForDecision(tx, id, now);
      await settleApproval(tx, id, { status: 'failed', by, note: decision.note, problem: failed, now });
    });
  }
  return approvalById(runtime.db, id);
}

/** A person denies: nothing runs; the agent sees who and the note. */
export async function denyHeldCall(runtime: ToolRuntime, id: string, decision: { approver: Actor; note?: string }): Promise<ApprovalRow> {
  assertApprover(decision.approver);
  return runtime.db.transaction((tx) => denyApproval(tx, id, { by: actorName(decision.approver), note: decision.note, now: runtime.clock() }));
}
