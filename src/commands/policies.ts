import { z } from 'zod';
import { holdableToolNames } from '../calls/approve.ts';
import { assertMayEditPolicies, readPolicyDocument, revertPolicyChange, writePolicyDocument } from '../policies/store.ts';
import { defineCommand } from './command.ts';

/**
 * The owner's policy document (docs/behaviour.md#policies-and-approvals): a command, never a tool, so no API key
 * or OAuth grant reads or loosens it. The console's /admin/policies and `butik policies` run these.
 */
export const policyCommands = [
  defineCommand({
    name: 'policies.show',
    input: z.strictObject({}),
    run: async (db, _input, { actor }) => {
      assertMayEditPolicies(actor);
      return readPolicyDocument(db);
    },
  }),
  defineCommand({
    name: 'policies.set',
    input: z.strictObject({ document: z.unknown().meta({ description: 'The whole document, as JSON text or parsed.' }) }),
    run: (db, input, { now, actor, channel }) => db.transaction((tx) =>
      writePolicyDocument(tx, input.document, { toolNames: holdableToolNames(), actor, channel, at: now })),
  }),
  defineCommand({
    name: 'policies.revert',
    input: z.strictObject({ entryId: z.string().trim().min(1).max(100) }),
    run: (db, input, { now, actor, channel }) => db.transaction((tx) =>
      revertPolicyChange(tx, input.entryId, { toolNames: holdableToolNames(), actor, channel, at: now })),
  }),
];
