import { ToolError } from '../errors/tool-error.ts';
import type { Actor } from './actor.ts';
import { readCredentials } from './authenticate.ts';
import type { Authenticator } from './authenticate.ts';
import { retryAfterSeconds } from './rate-limit.ts';
import type { RateLimitState, RateLimiter } from './rate-limit.ts';

export type Gate = { authenticator: Authenticator; limiter: RateLimiter };

export type Admission =
  | { ok: true; actor: Actor; rate: RateLimitState[] }
  | { ok: false; error: ToolError; rate: RateLimitState[] };

function limited(state: RateLimitState, rate: RateLimitState[]): Admission {
  const retryAfter = retryAfterSeconds(rate);
  return {
    ok: false,
    rate,
    error: new ToolError('rate_limited', `Rate limit "${state.policy}" of ${state.quota} requests per window exceeded; `
      + `retry in ${retryAfter} s.`, { retryAfter }),
  };
}

/**
 * Rate limits and authentication for one request, shared by REST, MCP and the key routes.
 * The preauth policy is counted before the key lookup, so a flood of invented keys never reaches
 * the database. `audience` is the protected resource the route serves, if any: only there are
 * OAuth access tokens granted for it accepted.
 */
export async function admit(
  gate: Gate,
  request: { ip: string; authorization: string | undefined; audience?: string },
): Promise<Admission> {
  const credentials = readCredentials(request.authorization);
  if (credentials.kind === 'none') {
    const anon = await gate.limiter.consume('anon', request.ip);
    if (anon.exceeded) return limited(anon, [anon]);
    return { ok: true, actor: { kind: 'anonymous', ip: request.ip }, rate: [anon] };
  }
  const preauth = await gate.limiter.consume('preauth', request.ip);
  if (preauth.exceeded) return limited(preauth, [preauth]);
  const auth = await gate.authenticator.authenticate(credentials.token, { audience: request.audience });
  if (!auth.ok) {
    const error = auth.paused ? new ToolError('agent_paused', auth.detail) : new ToolError('unauthorized', auth.detail, { invalidToken: true });
    return { ok: false, rate: [preauth], error };
  }
  // A key that authenticated is limited by its own policy: the pre-authentication point goes back, so only
  // unknown, malformed or revoked keys use up an IP's preauth allowance (one client, many valid requests).
  const returned = await gate.limiter.reward('preauth', request.ip, preauth);
  const subject = auth.actor.kind === 'key' ? auth.actor.keyId : auth.actor.kind;
  const key = await gate.limiter.consume('key', subject);
  if (key.exceeded) return limited(key, [returned, key]);
  return { ok: true, actor: auth.actor, rate: [returned, key] };
}
