import type { ToolRuntime, PreparedCall } from '../tools/invoke.ts';
import { createApproval, heldOf, viewOf } from '../policies/approvals.ts';
import type { HeldApproval } from '../policies/approvals.ts';
import { holdOf, rulesFor } from '../policies/hold.ts';
import { readPolicyDocument } from '../policies/store.ts';

/**
 * The policy stage, between validation and the handler (docs/behaviour.md#policies-and-approvals): a call of an
 * agent that a rule holds writes nothing and becomes a pending approval. People, the master key and reads pass
 * without a look; an agent's call reads the document from memory and, when no rule names it, nothing else.
 */
export async function policyHold(runtime: ToolRuntime, call: PreparedCall & { rawInput: unknown; idempotencyKey: string | undefined }): Promise<HeldApproval | undefined> {
  const { actor, tool } = call;
  if (actor.kind !== 'key' || tool.annotations.readOnlyHint) return undefined;
  const rules = rulesFor(await readPolicyDocument(runtime.db), actor);
  if (rules.length === 0) return undefined;
  const now = runtime.clock();
  const input = call.input as Record<string, unknown>;
  const hold = await holdOf(runtime.db, rules, { tool: tool.name, input, actor, now, timeZone: runtime.timeZone });
  if (!hold) return undefined;
  const { row, created } = await createApproval(runtime.db, {
    actor, channel: call.channel, tool: tool.name, input: call.rawInput, idempotencyKey: call.idempotencyKey, hold, now,
  });
  const held = heldOf(viewOf(row, runtime.baseUrl, now));
  if (created) runtime.approvalHeld?.({ id: held.id, url: held.url, expiresAt: held.expiresAt, reason: held.reason, tool: tool.name, agent: actor.name });
  return held;
}
