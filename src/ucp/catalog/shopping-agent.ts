import { parseAgent } from '../core/agent-header.ts';
import type { Agent } from '../core/agent-header.ts';
import { UcpError } from '../core/errors.ts';
import { SHOPPING_VERSION } from './shopping-answer.ts';

/**
 * UCP-Agent for catalog and cart: required, and any version up to theirs. The refusals in 2026-04-08's terms: a
 * newer version is 422 version_unsupported, a missing or unreadable profile 400 invalid_profile_url.
 */
export function shoppingAgent(header: string | string[] | undefined): Agent {
  let agent: Agent;
  try {
    agent = parseAgent(header);
  } catch (error) {
    if (!(error instanceof UcpError)) throw error;
    throw new UcpError(400, 'INVALID_PROFILE_URL', error.message);
  }
  if (agent.version !== undefined && agent.version > SHOPPING_VERSION) {
    throw new UcpError(422, 'VERSION_UNSUPPORTED', `Version ${agent.version} is not supported. This business implements version ${SHOPPING_VERSION}.`);
  }
  return agent;
}
