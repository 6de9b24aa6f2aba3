import { ANY_CALLER, hasScope } from '../access/actor.ts';
import type { Actor, ToolScope } from '../access/actor.ts';
import { managesAccess, scopesOfRole } from '../access/staff-roles.ts';
import type { StaffRole } from '../access/staff-roles.ts';
import { ToolError } from '../errors/tool-error.ts';
import { revertTargetFor } from './audit-targets.ts';
import type { RevertOptions } from './audit-revert.ts';
import { ALL_TOOLS } from './registry.ts';

/** What of an audit entry decides whether it may be reverted, and by whom. */
export type RevertCandidate = {
  id: string; tool: string; targetType: string; targetId: string; revertOf: string | null; revertedBy: string | null;
};

/**
 * Why `actor` may not revert `entry`, or undefined when they may. The one answer audit.revert and the console's
 * Activity page share (docs/behaviour.md#audit-and-revert). It judges what the entry says of itself; whether the
 * target has changed since needs the database, and audit.revert checks that under lock.
 *
 * A revert makes the entry's change again, the other way round, so it needs what making the change needed: the
 * scope of the tool that made it (a person's role gives their scopes). A change made by anything that is not a
 * tool (the import) or by a tool this version no longer has is the shop owner's alone to revert.
 */
export function revertRefusal(actor: Actor, entry: RevertCandidate, options: RevertOptions = {}): ToolError | undefined {
  return cannotRevert(entry, options) ?? mayNotRevert(actor, entry);
}

function notRevertible(detail: string): ToolError {
  return new ToolError('not_revertible', detail);
}

/** Entries nobody can revert. */
function cannotRevert(entry: RevertCandidate, options: RevertOptions): ToolError | undefined {
  if (entry.targetType === 'order') {
    return notRevertible(`Entry ${entry.id} (${entry.tool}) changed order ${entry.targetId}; order changes cannot be reverted `
      + 'because stock, discount uses and payments moved with them. Use orders.update_status to move the order to one of '
      + 'its legal next statuses instead.');
  }
  if (!revertTargetFor(entry.targetType)) {
    return notRevertible(`Entry ${entry.id} (${entry.tool}) changed a ${entry.targetType}, which audit.revert cannot restore. `
      + `Make the change you want with the ${entry.targetType} tools instead.`);
  }
  if (entry.revertOf !== null && !options.redo) {
    return notRevertible(`Entry ${entry.id} records the revert of entry ${entry.revertOf} and cannot itself be reverted. `
      + 'To redo the original change, make it again with the tool named by that entry (audit.list shows it).');
  }
  if (entry.revertedBy !== null) {
    // The entry's own tool made the change (products.delete deletes again; products.update would not).
    return notRevertible(`Entry ${entry.id} was already reverted by entry ${entry.revertedBy}. `
      + `To make the change again, use ${entry.tool}.`);
  }
  return undefined;
}

/** Entries this actor lacks the rights for. */
function mayNotRevert(actor: Actor, entry: RevertCandidate): ToolError | undefined {
  if (!hasScope(actor, 'audit:revert')) {
    const who = actor.kind === 'staff' ? `the ${actor.role} role does not have it` : 'this caller does not hold it';
    return new ToolError('insufficient_scope', `Reverting a change needs scope audit:revert, and ${who}.`, { scope: 'audit:revert' });
  }
  const scope = scopeOfTool(entry.tool);
  if (scope === undefined) {
    if (isOwner(actor)) return undefined;
    return new ToolError('insufficient_scope', `Entry ${entry.id} was made by ${entry.tool}, which only the shop owner runs, `
      + 'so only the shop owner can revert it (signed in to the console as owner, or with the master key).', { scope: 'master' });
  }
  if (hasScope(actor, scope)) return undefined;
  if (actor.kind === 'staff') {
    // Said to a person on the Activity page, beside the change itself: no entry id.
    return new ToolError('insufficient_scope', `This change was made with ${entry.tool}, which needs scope ${scope}; `
      + `the ${actor.role} role does not have it, so only ${roleArticle(lowestRoleWith(scope))} can revert it.`, { scope });
  }
  return new ToolError('insufficient_scope', `Entry ${entry.id} was made by ${entry.tool}, which needs scope ${scope}, `
    + 'which this key does not hold; reverting a change needs the rights to make it.', { scope });
}

function isOwner(actor: Actor): boolean {
  return actor.kind === 'master' || actor.kind === 'cli' || (actor.kind === 'staff' && managesAccess(actor.role));
}

let toolScopes: ReadonlyMap<string, ToolScope> | undefined;

/**
 * Read when first asked, not when this module loads: the registry's tool lists include audit.revert, whose
 * handler imports this module.
 */
function scopeOfTool(name: string): ToolScope | undefined {
  toolScopes ??= new Map(ALL_TOOLS.map((tool) => [tool.name, tool.scope]));
  return toolScopes.get(name);
}

/** From the role with the fewest rights up. */
const ROLES_BY_RIGHTS: readonly StaffRole[] = ['viewer', 'manager', 'owner'];

function lowestRoleWith(scope: ToolScope): StaffRole {
  return ROLES_BY_RIGHTS.find((role) => scope === ANY_CALLER || scopesOfRole(role).has(scope)) ?? 'owner';
}

function roleArticle(role: StaffRole): string {
  return role === 'owner' ? 'an owner' : `a ${role} or an owner`;
}
