import { agentCommands } from './agents.ts';
import type { OwnerCommand } from './command.ts';
import { importCommands } from './import.ts';
import { oauthCommands } from './oauth.ts';
import { staffCommands } from './staff.ts';
import { policyCommands } from './policies.ts';
import { approvalCommands } from './approvals.ts';

/** Every owner command, by name: the CLI runs them, the commands route serves them to a CLI that cannot open the database. */
const COMMANDS: ReadonlyMap<string, OwnerCommand> = new Map([...oauthCommands, ...agentCommands, ...staffCommands, ...importCommands, ...policyCommands, ...approvalCommands].map((command) => [command.name, command]));

export function ownerCommand(name: string): OwnerCommand | undefined {
  return COMMANDS.get(name);
}
