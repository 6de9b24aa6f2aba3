import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';

/** CONTRACT §5: the three policies, each a fixed window starting at its first counted request. */
export type PolicyName = 'anon' | 'preauth' | 'key';

export type RateLimitState = {
  policy: PolicyName;
  quota: number;
  remaining: number;
  /** Whole seconds until the window resets, at least 1. */
  resetSeconds: number;
  exceeded: boolean;
};

export type RateLimiter = {
  consume(policy: PolicyName, subject: string): Promise<RateLimitState>;
  close(): Promise<void>;
};

export type RateLimitSettings = {
  quotas: Record<PolicyName, number>;
  windowSeconds: number;
};

const POLICIES: readonly PolicyName[] = ['anon', 'preauth', 'key'];

function toState(policy: PolicyName, quota: number, res: RateLimiterRes, exceeded: boolean): RateLimitState {
  return {
    policy,
    quota,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
    exceeded,
  };
}

/** Wraps one rate-limiter-flexible limiter per policy; the store behind them is the caller's choice. */
export function createRateLimiter(
  settings: RateLimitSettings,
  makeLimiter: (policy: PolicyName, quota: number) => RateLimiterAbstract = (policy, quota) =>
    new RateLimiterMemory({ keyPrefix: policy, points: quota, duration: settings.windowSeconds }),
  close: () => Promise<void> = async () => {},
): RateLimiter {
  const limiters = new Map(POLICIES.map((policy) => [policy, makeLimiter(policy, settings.quotas[policy])]));
  return {
    async consume(policy, subject) {
      const limiter = limiters.get(policy);
      const quota = settings.quotas[policy];
      if (!limiter) throw new Error(`no limiter for ${policy}`);
      try {
        return toState(policy, quota, await limiter.consume(subject), false);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return toState(policy, quota, rejection, true);
        throw rejection;
      }
    },
    close,
  };
}

/** CONTRACT §11: the policy with the smallest remaining fraction r/q; ties → smaller r. */
export function closestToExhaustion(states: readonly RateLimitState[]): RateLimitState | undefined {
  let best: RateLimitState | undefined;
  for (const state of states) {
    if (!best) { best = state; continue; }
    const a = state.remaining * best.quota;
    const b = best.remaining * state.quota;
    if (a < b || (a === b && state.remaining < best.remaining)) best = state;
  }
  return best;
}

/** CONTRACT §5 header set, draft-ietf-httpapi-ratelimit-headers structured fields plus the legacy trio. */
export function rateLimitHeaders(states: readonly RateLimitState[], windowSeconds: number): Record<string, string> {
  const state = closestToExhaustion(states);
  if (!state) return {};
  const headers: Record<string, string> = {
    'ratelimit-policy': `"${state.policy}";q=${state.quota};w=${windowSeconds}`,
    ratelimit: `"${state.policy}";r=${state.remaining};t=${state.resetSeconds}`,
    'ratelimit-limit': String(state.quota),
    'ratelimit-remaining': String(state.remaining),
    'ratelimit-reset': String(state.resetSeconds),
  };
  const blocked = states.filter((s) => s.exceeded);
  if (blocked.length > 0) headers['retry-after'] = String(Math.max(...blocked.map((s) => s.resetSeconds)));
  return headers;
}
