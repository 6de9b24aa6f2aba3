import type { Scope } from './scopes.ts';

/** Who is calling. The master key and the offline CLI hold every scope. */
export type Actor =
  | { kind: 'anonymous'; ip: string }
  | { kind: 'master' }
  | { kind: 'cli' }
  | { kind: 'key'; keyId: string; name: string; scopes: ReadonlySet<Scope> };

/** An OAuth grant acts as a key whose id carries this prefix (oauth/server.ts): its scopes were ticked at consent. */
export const OAUTH_KEY_PREFIX = 'oauth:';

export function isOAuthGrant(actor: Actor): boolean {
  return actor.kind === 'key' && actor.keyId.startsWith(OAUTH_KEY_PREFIX);
}

export function hasScope(actor: Actor, scope: Scope): boolean {
  switch (actor.kind) {
    case 'master':
    case 'cli':
      return true;
    case 'key':
      return actor.scopes.has(scope);
    case 'anonymous':
      return false;
  }
}

export function actorName(actor: Actor): string {
  switch (actor.kind) {
    case 'master':
      return 'master';
    case 'cli':
      return 'cli';
    case 'key':
      return actor.name;
    case 'anonymous':
      return 'anonymous';
  }
}

/** The identity idempotency keys and rate limits are scoped to. Never contains a secret. */
export function callerId(actor: Actor): string {
  switch (actor.kind) {
    case 'master':
      return 'master';
    case 'cli':
      return 'cli';
    case 'key':
      return `key:${actor.keyId}`;
    case 'anonymous':
      return `ip:${actor.ip}`;
  }
}
