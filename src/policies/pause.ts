import { actorName } from '../access/actor.ts';
import { pauseAgent } from '../access/agent-pauses.ts';
import type { Agent, PauseAudit, PauseState } from '../access/agent-pauses.ts';
import type { Db } from '../db/client.ts';
import { denyPendingApprovalsFor } from './approvals.ts';

/**
 * Pauses an agent and denies, in the same transaction, every call of its still waiting for approval: a person
 * who stops an agent does not want its held calls to run later by someone's click. The console and the CLI
 * pause through here; access/ knows nothing of approvals.
 */
export function pauseAgentAndDenyItsApprovals(db: Db, agent: Agent, by: PauseAudit): Promise<PauseState> {
  return pauseAgent(db, agent, by, (tx) => denyPendingApprovalsFor(tx, agent, {
    by: actorName(by.actor), note: 'The agent was paused; its waiting calls were denied with it.', now: by.at,
  }));
}
