import { z } from 'zod';
import { listConnections, revokeClient, revokeGrant } from '../oauth/grants.ts';
import { defineCommand } from './command.ts';

export type { Connection } from '../oauth/grants.ts';

// A client id is a UUID or, for a client named by its metadata document, that document's URL.
const Id = z.string().trim().min(1).max(2000);

export const oauthCommands = [
  defineCommand({
    name: 'oauth.list',
    input: z.strictObject({}),
    run: (db, _input, { now }) => listConnections(db, now),
  }),
  defineCommand({
    name: 'oauth.revoke-client',
    input: z.strictObject({ clientId: Id }),
    run: (db, input, { now, actor, channel }) => revokeClient(db, input.clientId, { actor, channel, at: now }),
  }),
  defineCommand({
    name: 'oauth.revoke-grant',
    input: z.strictObject({ grantId: Id }),
    run: (db, input, { now, actor, channel }) => revokeGrant(db, input.grantId, { actor, channel, at: now }),
  }),
];
