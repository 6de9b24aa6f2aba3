import { z } from 'zod';
import { ANY_CALLER } from '../access/actor.ts';
import { ApprovalShape, ownApproval, ownApprovals, viewOf } from '../policies/approvals.ts';
import { defineTool, readOnly } from './define-tool.ts';
import type { AnyTool } from './define-tool.ts';

/**
 * An agent's side of a held call: it reads its own approvals, nothing more. No tool approves or denies; a person
 * does, in the console or with the CLI (docs/behaviour.md#policies-and-approvals).
 */
export const getApproval = defineTool({
  name: 'approvals.get',
  description: 'The status of one of your held calls: pending, approved (with the tool\'s result), denied (who, and '
    + 'their note), expired (after 24 h) or failed (the problem, e.g. conflict when the target changed since the hold). '
    + 'Poll it after a call answered pending; only a person can approve.',
  scope: ANY_CALLER,
  annotations: readOnly('Get approval'),
  input: z.strictObject({ id: z.string().trim().min(1).max(100).meta({ description: 'approval.id from the held answer.' }) })
    .meta({ examples: [{ id: '0193a5c4-7d1e-7c3a-9f2b-3e4d5c6b7a81' }] }),
  output: ApprovalShape,
  async handler({ id }, ctx) {
    return viewOf(await ownApproval(ctx.db, ctx.actor, id), ctx.baseUrl, ctx.clock());
  },
});

export const listApprovals = defineTool({
  name: 'approvals.list',
  description: 'Your own held calls, newest first, with their status.',
  scope: ANY_CALLER,
  annotations: readOnly('List approvals'),
  input: z.strictObject({ limit: z.int().min(1).max(100).default(20).meta({ description: 'At most this many, 1..100.' }) })
    .meta({ examples: [{ limit: 20 }] }),
  output: z.strictObject({ approvals: z.array(ApprovalShape) }),
  async handler({ limit }, ctx) {
    const now = ctx.clock();
    return { approvals: (await ownApprovals(ctx.db, ctx.actor, limit)).map((row) => viewOf(row, ctx.baseUrl, now)) };
  },
});

export const approvalTools: AnyTool[] = [getApproval, listApprovals];
