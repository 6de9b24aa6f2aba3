import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';

/**
 * The four policies, each a fixed window starting at its first counted request: `anon`, `preauth` and `key`
 * for the tool routes (preauth also for UCP key mode's key guesses), and `ucp` for the UCP checkout routes per IP.
 */
export type PolicyName = 'anon' | 'preauth' | 'key' | 'ucp';

export type RateLimitState = {
  policy: PolicyName;
  quota: number;
  remaining: number;
  /** Whole seconds until the window resets, at least 1. */
  resetSeconds: number;
  exceeded: boolean;
};

/**
 * Where the counters live right now (reported by /readyz): process memory by configuration, Redis,
 * or process memory because the configured Redis does not answer.
 */
export type RateLimitStore = 'memory' | 'redis' | 'degraded';

/** What the policies need of a limiter: rate-limiter-flexible's consume and reward. */
export type Counter = Pick<RateLimiterAbstract, 'consume' | 'reward'>;

/** A counter store: one counter per policy, plus its connection's life cycle. */
export type RateLimitBackend = {
  limiterFor(policy: PolicyName, quota: number): Counter;
  store(): RateLimitStore;
  /** Resolves once the store answers; rejects when it cannot be reached in time. */
  ready(): Promise<void>;
  close(): Promise<void>;
};

export type RateLimiter = Omit<RateLimitBackend, 'limiterFor'> & {
  /** Counts one request of `subject` (an IP or a key id, never a secret) under `policy`. */
  consume(policy: PolicyName, subject: string): Promise<RateLimitState>;
  /** Gives back the point `counted` took; returns the state as it is after that. */
  reward(policy: PolicyName, subject: string, counted: RateLimitState): Promise<RateLimitState>;
};

export type RateLimitSettings = {
  quotas: Record<PolicyName, number>;
  windowSeconds: number;
};

const POLICIES: readonly PolicyName[] = ['anon', 'preauth', 'key', 'ucp'];

/** Counters in process memory: one instance, or the fallback while Redis is away. */
export function memoryBackend(windowSeconds: number, keyPrefix = 'rl'): RateLimitBackend {
  return {
    limiterFor: (policy, quota) => new RateLimiterMemory({ keyPrefix: `${keyPrefix}:${policy}`, points: quota, duration: windowSeconds }),
    store: () => 'memory',
    ready: async () => {},
    close: async () => {},
  };
}

function toState(policy: PolicyName, quota: number, res: RateLimiterRes, exceeded: boolean): RateLimitState {
  return {
    policy,
    quota,
    remaining: Math.max(0, res.remainingPoints),
    // Rounded up, so a client that waits this long never arrives before the reset.
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
    exceeded,
  };
}

/** The four policies over one counter store (process memory unless told otherwise). */
export function createRateLimiter(settings: RateLimitSettings, backend: RateLimitBackend = memoryBackend(settings.windowSeconds)): RateLimiter {
  const limiters = new Map(POLICIES.map((policy) => [policy, backend.limiterFor(policy, settings.quotas[policy])]));
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
    async reward(policy, subject, counted) {
      const limiter = limiters.get(policy);
      if (!limiter) throw new Error(`no limiter for ${policy}`);
      // Losing a reward (Redis gone mid-request) only leaves the point counted: never worth failing the request.
      await limiter.reward(subject).catch(() => undefined);
      return { ...counted, remaining: Math.min(counted.quota, counted.remaining + 1) };
    },
    store: () => backend.store(),
    ready: () => backend.ready(),
    close: () => backend.close(),
  };
}

/**
 * The policy named is the one with the smallest remaining fraction r/q; ties → smaller r. Among policies
 * that are still tied (all exhausted, say) the one that resets last is named, so the `RateLimit` header
 * of a 429 agrees with its Retry-After.
 */
export function closestToExhaustion(states: readonly RateLimitState[]): RateLimitState | undefined {
  let best: RateLimitState | undefined;
  for (const state of states) {
    if (!best) { best = state; continue; }
    const a = state.remaining * best.quota;
    const b = best.remaining * state.quota;
    if (a < b || (a === b && (state.remaining < best.remaining
      || (state.remaining === best.remaining && state.resetSeconds > best.resetSeconds)))) best = state;
  }
  return best;
}

/**
 * Seconds a refused client must wait: until every policy it has used up resets, since the next request
 * would be counted against all of them. Never earlier than the reset of the policy that refused it.
 */
export function retryAfterSeconds(states: readonly RateLimitState[]): number {
  return Math.max(1, ...states.filter((s) => s.exceeded || s.remaining === 0).map((s) => s.resetSeconds));
}

/** The header set of docs/behaviour.md#rate-limits: draft-ietf-httpapi-ratelimit-headers structured fields plus the legacy trio. */
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
  if (states.some((s) => s.exceeded)) headers['retry-after'] = String(retryAfterSeconds(states));
  return headers;
}
