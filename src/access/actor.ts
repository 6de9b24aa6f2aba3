import type { Scope } from './scopes.ts';
import type { StaffRole } from './staff-roles.ts';

/** Who is calling. The master key and the offline CLI hold every scope. */
export type Actor =
  | { kind: 'anonymous'; ip: string }
  | { kind: 'master' }
  | { kind: 'cli' }
  /** An API key, or an OAuth grant acting as one (then `clientId` names the application it was granted to). */
  | { kind: 'key'; keyId: string; name: string; scopes: ReadonlySet<Scope>; clientId?: string }
  /** A person signed in to /admin; their role decides the scopes (staff-roles.ts). */
  | { kind: 'staff'; staffId: string; email: string; role: StaffRole; scopes: ReadonlySet<Scope> };

/** An OAuth grant acts as a key whose id carries this prefix (oauth/server.ts): its scopes were ticked at consent. */
export const OAUTH_KEY_PREFIX = 'oauth:';

export function isOAuthGrant(actor: Actor): boolean {
  return actor.kind === 'key' && actor.keyId.startsWith(OAUTH_KEY_PREFIX);
}

/** A tool every signed-in caller may call, for what is its own (its held calls): scope `any`. */
export const ANY_CALLER = 'any';
export type ToolScope = Scope | typeof ANY_CALLER;

export function hasScope(actor: Actor, scope: ToolScope): boolean {
  if (scope === ANY_CALLER) return actor.kind !== 'anonymous';
  switch (actor.kind) {
    case 'master':
    case 'cli':
      return true;
    case 'key':
    case 'staff':
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
    case 'staff':
      return `${actor.email} (${actor.role})`;
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
    case 'staff':
      return `staff:${actor.staffId}`;
    case 'anonymous':
      return `ip:${actor.ip}`;
  }
}
