import { STAFF_ROLES } from '../db/schema.ts';
import { TOOL_SCOPES } from './scopes.ts';
import type { Scope } from './scopes.ts';

export type StaffRole = typeof STAFF_ROLES[number];
export { STAFF_ROLES };

const READ_SCOPES = TOOL_SCOPES.filter((scope) => scope.endsWith(':read'));

/**
 * What each role may do, as tool scopes, so the console is held by the same scope checks as every key.
 * A viewer reads everything; a manager also runs the shop day to day (catalog, content, discounts, orders,
 * and undoing such changes); an owner holds every tool scope, and beyond scopes manages keys and staff.
 */
const ROLE_SCOPES: Record<StaffRole, ReadonlySet<Scope>> = {
  viewer: new Set(READ_SCOPES),
  manager: new Set<Scope>([
    ...READ_SCOPES, 'products:write', 'categories:write', 'pages:write', 'discounts:write', 'orders:write',
    'marketing:write', 'audit:revert',
  ]),
  owner: new Set(TOOL_SCOPES),
};

export function scopesOfRole(role: StaffRole): ReadonlySet<Scope> {
  return ROLE_SCOPES[role];
}

/** Keys, staff accounts and the shop settings are the owner's alone. */
export function managesAccess(role: StaffRole): boolean {
  return role === 'owner';
}

/**
 * Pausing an agent is a brake anyone running the shop day to day may pull (owner, manager); letting it call
 * again gives it back its authority, which, like issuing a key, is the owner's alone.
 */
export function pausesAgents(role: StaffRole): boolean {
  return role === 'owner' || role === 'manager';
}

export function resumesAgents(role: StaffRole): boolean {
  return role === 'owner';
}
