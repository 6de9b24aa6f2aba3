import { z } from 'zod';
import type { Log } from '../../log.ts';
import { sendOutbound } from '../../outbound/fetch.ts';
import type { OutboundPolicy } from '../../outbound/fetch.ts';

/** A public key as a profile's signing_keys lists it (RFC 7517); `kid` names it in a signature's keyid. */
export type ProfileKey = Record<string, unknown> & { kid: string; kty: string };

/**
 * What a platform's profile tells the shop: the protocol version it speaks, the capabilities it speaks, where it
 * takes order events, and the keys its requests are signed with. `signingKeys` is null when the profile could
 * not be read; `malformed` says why, when it was read but is not a UCP profile (not JSON, or no `ucp` object).
 */
export type PlatformProfile = {
  version: string | null; capabilities: string[] | null; webhookUrl: string | null; signingKeys: ProfileKey[] | null; malformed: string | null;
};

const UNKNOWN: PlatformProfile = { version: null, capabilities: null, webhookUrl: null, signingKeys: null, malformed: null };

/** A profile that answered but is not UCP's: the platform's mistake to fix, not an outage to wait out. */
class MalformedProfile extends Error {}

function profileDocument(text: string) {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new MalformedProfile('is not JSON');
  }
  const parsed = ProfileDocument.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new MalformedProfile(`is not a UCP profile (${issue?.path.length ? `${issue.path.join('.')}: ` : ''}${issue?.message ?? 'invalid'})`);
  }
  return parsed.data;
}

const Config = z.object({ webhook_url: z.url().optional() }).loose().optional();
const Entry = z.object({ config: Config }).loose();

/** 2026-01-11 lists capabilities with their names; later versions key a registry of them by name. */
const ProfileDocument = z.object({
  ucp: z.object({
    version: z.string().optional(),
    capabilities: z.union([
      z.array(Entry.extend({ name: z.string() })),
      z.record(z.string(), z.array(Entry)).transform((registry) => Object.entries(registry)
        .flatMap(([name, entries]) => entries.map((entry) => ({ ...entry, name })))),
    ]).optional(),
  }).loose(),
  signing_keys: z.array(z.unknown()).optional(),
}).loose();

const Key = z.object({ kid: z.string().min(1), kty: z.string() }).loose();

const CACHE_MS = 5 * 60_000;
/** A profile that could not be read is asked for again sooner, so a platform's short outage costs little. */
const FAILURE_CACHE_MS = 30_000;
/** A forced refetch (a signature naming a key the cached profile lacks) happens at most this often per origin. */
const REFRESH_FLOOR_MS = 60_000;
const MAX_ENTRIES = 1000;

/** A bounded map: the oldest entry goes when a new one would pass MAX_ENTRIES. */
function remember<V>(map: Map<string, V>, key: string, value: V): V {
  map.delete(key);
  if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value ?? '');
  map.set(key, value);
  return value;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/**
 * Reads platform profiles named in UCP-Agent, each kept five minutes. A failure (unreachable, too slow,
 * too large, not a profile) is logged and answered as "nothing known": an unreachable profile never fails the
 * platform's request by itself (a signed request needs the keys, and its check refuses it); one that answered
 * but is not a UCP profile is marked `malformed`, which the checkout refuses (operations.ts). `refresh` reads the profile again
 * (a key rotated since it was cached), at most once a minute per origin, as docs/ucp.md#request-signatures says.
 */
export function platformProfiles(policy: OutboundPolicy, log: Log, clock: () => number = Date.now) {
  const cache = new Map<string, { until: number; profile: PlatformProfile }>();
  const refreshed = new Map<string, number>();
  const keep = (url: string, profile: PlatformProfile, ms: number) => remember(cache, url, { until: clock() + ms, profile }).profile;

  return async function profileOf(url: string, options: { refresh?: boolean } = {}): Promise<PlatformProfile> {
    if (url === '') return UNKNOWN;
    const cached = cache.get(url);
    const origin = originOf(url);
    const mayRefresh = options.refresh === true && clock() - (refreshed.get(origin) ?? -Infinity) >= REFRESH_FLOOR_MS;
    if (cached && cached.until > clock() && !mayRefresh) return cached.profile;
    if (mayRefresh) remember(refreshed, origin, clock());
    try {
      const answer = await sendOutbound({ method: 'GET', url, headers: { accept: 'application/json' }, timeoutMs: 3_000, maxBytes: 64 * 1024 }, policy);
      if (answer.status !== 200) throw new Error(`status ${answer.status}`);
      const document = profileDocument(answer.text);
      const capabilities = document.ucp.capabilities ?? [];
      const webhookUrl = capabilities.find((capability) => capability.config?.webhook_url)?.config?.webhook_url ?? null;
      const signingKeys = (document.signing_keys ?? []).flatMap((entry) => {
        const key = Key.safeParse(entry);
        return key.success ? [key.data] : [];
      });
      const names = [...new Set(capabilities.map((capability) => capability.name))];
      return keep(url, { version: document.ucp.version ?? null, capabilities: names, webhookUrl, signingKeys, malformed: null }, CACHE_MS);
    } catch (error) {
      log.warn({ profile: url, reason: error instanceof Error ? error.message : String(error) }, 'ucp: platform profile unreadable');
      // A failed refresh leaves the profile still in date as it was: the keys it lists go on verifying.
      if (cached && cached.until > clock()) return cached.profile;
      return keep(url, error instanceof MalformedProfile ? { ...UNKNOWN, malformed: error.message } : UNKNOWN, FAILURE_CACHE_MS);
    }
  };
}
export type ProfileReader = ReturnType<typeof platformProfiles>;
