/**
 * The UCP protocol versions Butik answers in, newest first. One implementation serves them all: requests are read
 * and answers are shaped per version at the edges (ucp/checkout/shapes.ts, ucp/profile.ts), never by a copy of the logic.
 */
export const UCP_VERSIONS = ['2026-04-08', '2026-01-23', '2026-01-11'] as const;
export type UcpVersion = (typeof UCP_VERSIONS)[number];

export const NEWEST_VERSION: UcpVersion = UCP_VERSIONS[0];

export function isUcpVersion(value: string): value is UcpVersion {
  return (UCP_VERSIONS as readonly string[]).includes(value);
}

/** The versions a shop declaring `declared` answers: that one and every older one Butik implements. */
export function servedVersions(declared: UcpVersion): UcpVersion[] {
  return UCP_VERSIONS.filter((version) => version <= declared);
}

/**
 * Whether `version` is one of 2026-01-23's successors: profiles and answers name services, capabilities and payment
 * handlers in registries keyed by reverse-domain name instead of lists.
 */
export const usesRegistries = (version: UcpVersion): boolean => version >= '2026-01-23';
