import { z } from 'zod';
import { approveHeldCall, denyHeldCall } from '../calls/approve.ts';
import { allApprovals, approvalById, viewOf } from '../policies/approvals.ts';
import type { ApprovalRow } from '../policies/approvals.ts';
import { ToolError } from '../errors/tool-error.ts';
import { defineCommand } from './command.ts';

const Id = z.string().trim().min(1).max(100);
const Note = z.string().trim().min(1).max(1000).optional();

/** What a person sees of an approval: the agent, the tool and the exact arguments beside the status. */
function shown(row: ApprovalRow, baseUrl: string, now: Date) {
  return { ...viewOf(row, baseUrl, now), agent: row.agentName, arguments: row.input, before: row.preview };
}

/** People decide held calls here (and in the console); an agent has no door to these. */
export const approvalCommands = [
  defineCommand({
    name: 'approvals.list',
    input: z.strictObject({ id: Id.optional() }),
    run: async (db, input, { runtime, now }) => (input.id === undefined ? await allApprovals(db, 100) : [await approvalById(db, input.id)])
      .map((row) => shown(row, runtime.baseUrl, now)),
  }),
  defineCommand({
    name: 'approvals.approve',
    input: z.strictObject({ id: Id, note: Note }),
    run: async (db, input, { runtime, actor }) => {
      const row = await approveHeldCall({ ...runtime, db }, input.id, { approver: actor, note: input.note });
      // The person at the terminal learns that it did not run, and why, as a failure of the command.
      if (row.status === 'failed') {
        const problem = row.problem as { code: string; detail: string } | null;
        throw new ToolError('conflict', `Approval ${row.id} failed: ${problem?.detail ?? 'the call did not run'}`);
      }
      return shown(row, runtime.baseUrl, runtime.clock());
    },
  }),
  defineCommand({
    name: 'approvals.deny',
    input: z.strictObject({ id: Id, note: Note }),
    run: async (db, input, { runtime, actor }) =>
      shown(await denyHeldCall({ ...runtime, db }, input.id, { approver: actor, note: input.note }), runtime.baseUrl, runtime.clock()),
  }),
];
