import { TOOL_SCOPES } from '../access/scopes.ts';
import type { Scope } from '../access/scopes.ts';

/**
 * How the consent page presents the scopes, least privilege first: what the application asked for is ticked,
 * nothing else, and the owner unticks what it should not have.
 */
export type ToolScope = (typeof TOOL_SCOPES)[number];
export type ScopeGroup = { name: 'read' | 'write' | 'administration'; title: string; explanation: string; scopes: readonly ToolScope[] };

/** Settings change how the whole shop works, and a revert undoes someone else's work: administration, not writing. */
const ADMINISTRATION: ReadonlySet<ToolScope> = new Set(['settings:read', 'settings:write', 'audit:revert']);

export const SCOPE_GROUPS: readonly ScopeGroup[] = [
  {
    name: 'read',
    title: 'Read',
    explanation: 'Look at the shop without changing anything.',
    scopes: TOOL_SCOPES.filter((scope) => scope.endsWith(':read') && !ADMINISTRATION.has(scope)),
  },
  {
    name: 'write',
    title: 'Write',
    explanation: 'Change the shop: every change is in the audit log. Leave ticked only what the application needs.',
    scopes: TOOL_SCOPES.filter((scope) => !scope.endsWith(':read') && !ADMINISTRATION.has(scope)),
  },
  {
    name: 'administration',
    title: 'Administration',
    explanation: 'Read and change the shop\'s settings, and undo earlier changes from the audit log.',
    scopes: TOOL_SCOPES.filter((scope) => ADMINISTRATION.has(scope)),
  },
];

/** A sentence per scope, so the owner knows what each tick allows. */
export const SCOPE_EXPLANATIONS: Record<ToolScope, string> = {
  'analytics:read': 'See sales figures and best sellers.',
  'audit:read': 'Read the audit log of every change.',
  'audit:revert': 'Undo a change recorded in the audit log.',
  'cart:write': 'Create carts and place orders.',
  'catalog:read': 'Read products, including hidden ones, and their content.',
  'categories:read': 'Read the categories.',
  'categories:write': 'Create, change and delete categories.',
  'customer:read': 'Read customers and their order history (personal data).',
  'discounts:read': 'Read discount codes.',
  'discounts:write': 'Create, change and delete discount codes.',
  'features:read': 'Read which shop features are switched on.',
  'features:write': 'Switch shop features on and off.',
  'marketing:write': 'Write the announcement banner and product texts.',
  'orders:read': 'Read orders, their buyers and addresses.',
  'orders:write': 'Change the status of orders (ship, cancel, refund).',
  'pages:read': 'Read pages and service offerings, drafts included.',
  'pages:write': 'Create, change and publish pages and service offerings.',
  'products:write': 'Create, change and delete products, prices and stock.',
  'settings:read': 'Read the shop\'s settings.',
  'settings:write': 'Change the shop\'s settings: name, contact details, shipping prices, currency.',
};

/**
 * Scopes ticked when the page opens: exactly the ones asked for. A host stepping its grant up (an MCP tool
 * answered 403 insufficient_scope) asks for what it had plus the one scope the tool needs, so the owner
 * approves that step as asked instead of ticking the write scope again by hand; nothing unasked is ever ticked.
 */
export function preTicked(requested: readonly Scope[]): Set<Scope> {
  return new Set(requested);
}
