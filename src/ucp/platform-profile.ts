import { z } from 'zod';
import type { Log } from '../log.ts';
import { sendOutbound } from './outbound.ts';
import type { OutboundPolicy } from './outbound.ts';

/**
 * What a platform's profile tells the shop: the protocol version it speaks, the capabilities it speaks and where
 * it takes order events.
 */
export type PlatformProfile = { version: string | null; capabilities: string[] | null; webhookUrl: string | null };

const UNKNOWN: PlatformProfile = { version: null, capabilities: null, webhookUrl: null };

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
}).loose();

const CACHE_MS = 5 * 60_000;
/** A profile that could not be read is asked for again sooner, so a platform's short outage costs little. */
const FAILURE_CACHE_MS = 30_000;
const MAX_ENTRIES = 1000;

/**
 * Reads platform profiles named in UCP-Agent, each kept five minutes. A failure (unreachable, too slow,
 * too large, not a profile) is logged and answered as "nothing known": it never fails the platform's request.
 */
export function platformProfiles(policy: OutboundPolicy, log: Log, clock: () => number = Date.now) {
  const cache = new Map<string, { until: number; profile: PlatformProfile }>();
  const remember = (url: string, profile: PlatformProfile, ms: number) => {
    cache.delete(url);
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value ?? '');
    cache.set(url, { until: clock() + ms, profile });
    return profile;
  };
  return async function profileOf(url: string): Promise<PlatformProfile> {
    if (url === '') return UNKNOWN;
    const cached = cache.get(url);
    if (cached && cached.until > clock()) return cached.profile;
    try {
      const answer = await sendOutbound({ method: 'GET', url, headers: { accept: 'application/json' }, timeoutMs: 3_000, maxBytes: 64 * 1024 }, policy);
      if (answer.status !== 200) throw new Error(`status ${answer.status}`);
      const document = ProfileDocument.parse(JSON.parse(answer.text));
      const capabilities = document.ucp.capabilities ?? [];
      const webhookUrl = capabilities.find((capability) => capability.config?.webhook_url)?.config?.webhook_url ?? null;
      const names = [...new Set(capabilities.map((capability) => capability.name))];
      return remember(url, { version: document.ucp.version ?? null, capabilities: names, webhookUrl }, CACHE_MS);
    } catch (error) {
      log.warn({ profile: url, reason: error instanceof Error ? error.message : String(error) }, 'ucp: platform profile unreadable');
      return remember(url, UNKNOWN, FAILURE_CACHE_MS);
    }
  };
}
export type ProfileReader = ReturnType<typeof platformProfiles>;
