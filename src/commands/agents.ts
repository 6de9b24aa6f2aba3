import { z } from 'zod';
import { appAgentOf, keyAgentNamed, resumeAgent } from '../access/agent-pauses.ts';
import { pauseAgentAndDenyItsApprovals } from '../policies/pause.ts';
import { defineCommand } from './command.ts';

const KeyName = z.strictObject({ key: z.string().trim().min(1).max(200).meta({ description: 'The key\'s name, or its id.' }) });
const ClientId = z.strictObject({ clientId: z.string().trim().min(1).max(200) });

/**
 * `butik keys pause|resume NAME` and `butik oauth pause|resume CLIENT_ID`: the owner's brake on one agent, also
 * while a server holds the embedded database. Every instance honours it through the change feed.
 */
export const agentCommands = [
  defineCommand({
    name: 'keys.pause',
    input: KeyName,
    run: async (db, input, { now, actor, channel }) => pauseAgentAndDenyItsApprovals(db, await keyAgentNamed(db, input.key), { actor, channel, at: now }),
  }),
  defineCommand({
    name: 'keys.resume',
    input: KeyName,
    run: async (db, input, { now, actor, channel }) => resumeAgent(db, await keyAgentNamed(db, input.key), { actor, channel, at: now }),
  }),
  defineCommand({
    name: 'oauth.pause',
    input: ClientId,
    run: async (db, input, { now, actor, channel }) => pauseAgentAndDenyItsApprovals(db, await appAgentOf(db, input.clientId), { actor, channel, at: now }),
  }),
  defineCommand({
    name: 'oauth.resume',
    input: ClientId,
    run: async (db, input, { now, actor, channel }) => resumeAgent(db, await appAgentOf(db, input.clientId), { actor, channel, at: now }),
  }),
];
