import type { Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { hasScope } from '../access/actor.ts';
import type { Actor } from '../access/actor.ts';
import { Warning } from '../schema/warning.ts';
import { toJsonSchema } from '../tools/registry.ts';
import { HeldAnswer } from '../calls/run-call.ts';
import type { Registry, RegisteredTool } from '../tools/registry.ts';
import { withAppView } from './apps/resources.ts';
import { leanInputSchema, leanOutputSchema } from './lean-schema.ts';

type JsonSchema = Record<string, unknown>;

export type McpTool = {
  tool: RegisteredTool;
  /** The tools/list entry, built once at start-up. */
  listing: Tool;
  /** The connector's entries for an OAuth sign-in, built once too: with the tool's scope, and for a sign-in without it. */
  stepUp: { granted: Tool; missing: Tool };
  /**
   * structuredContent must be an object, so a tool whose result is not always an object
   * (an array, or something nullable) sends `{"result": R}` and says so in its outputSchema.
   */
  wrapsResult: boolean;
};

export type McpCatalog = {
  readonly tools: readonly McpTool[];
  get(name: string): McpTool | undefined;
};

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether every value the schema admits is a JSON object: `type: "object"`, object keywords on a
 * typeless root, or a composition whose members all are (a union of result shapes).
 */
export function describesObjects(schema: JsonSchema): boolean {
  if (schema.type !== undefined) return schema.type === 'object';
  if (['properties', 'required', 'additionalProperties'].some((key) => key in schema)) return true;
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const members = schema[key];
    if (Array.isArray(members) && members.length > 0) {
      return members.every((member) => isSchema(member) && describesObjects(member));
    }
  }
  return false;
}

/**
 * The MCP input or output schema for a REST schema: the same JSON Schema object when its root says
 * `type: "object"`, the same keywords with `type: "object"` stamped on an object-shaped union (MCP
 * requires an object root), and otherwise the wrapper `{result: <REST schema>}` of docs/behaviour.md#results-carried-twice, with
 * `$defs` kept at the root so that `#/$defs/…` references still resolve.
 */
export function mcpSchemaFor(schema: JsonSchema): { schema: JsonSchema; wraps: boolean } {
  if (schema.type === 'object') return { schema, wraps: false };
  if (describesObjects(schema)) return { schema: { type: 'object', ...schema }, wraps: false };
  const { $defs, ...natural } = schema;
  return {
    wraps: true,
    schema: {
      type: 'object',
      properties: { result: natural },
      required: ['result'],
      ...($defs === undefined ? {} : { $defs }),
    },
  };
}

/** The `warnings` member a result may carry beside its own members (a price under one krone, …). */
const WARNINGS_SCHEMA = leanOutputSchema(toJsonSchema(z.array(Warning), 'output'));

/**
 * The output schema of a tool that may warn: its structuredContent carries `warnings` beside the result's
 * members (or beside `result` when the result is wrapped), so the schema names it, optional.
 */
function withWarnings(schema: JsonSchema): JsonSchema {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  return { ...schema, properties: { ...properties, warnings: WARNINGS_SCHEMA } };
}

/** The structuredContent of a held call (docs/behaviour.md#a-held-call). */
const HELD_SCHEMA = leanOutputSchema(toJsonSchema(HeldAnswer, 'output'));

/**
 * The output schema of a write tool: its result, or the held answer a policy may give instead. SDK clients
 * validate structuredContent against it, so both must pass; `$defs` stay at the root for `#/$defs/…` references.
 */
function orHeld(schema: JsonSchema): JsonSchema {
  const { $defs, ...result } = schema;
  return { type: 'object', anyOf: [result, HELD_SCHEMA], ...($defs === undefined ? {} : { $defs }) };
}

function toMcpTool(tool: RegisteredTool): McpTool {
  const input = mcpSchemaFor(leanInputSchema(tool.inputJsonSchema));
  if (input.wraps) throw new Error(`${tool.name}: a tool's input must be a JSON object`);
  const shaped = mcpSchemaFor(leanOutputSchema(tool.outputJsonSchema));
  const warned = tool.warnings === undefined ? shaped : { ...shaped, schema: withWarnings(shaped.schema) };
  const output = tool.annotations.readOnlyHint ? warned : { ...warned, schema: orHeld(warned.schema) };
  const { title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = tool.annotations;
  const listing: Tool = withAppView({
    name: tool.name,
    title,
    description: tool.description,
    inputSchema: { type: 'object', ...input.schema },
    outputSchema: { type: 'object', ...output.schema },
    annotations: {
      readOnlyHint,
      destructiveHint,
      idempotentHint,
      openWorldHint,
    },
  });
  return { tool, wrapsResult: output.wraps, listing, stepUp: stepUpListings(tool, listing) };
}

/** Where a connector listing names the scope a tool needs (docs/behaviour.md#the-tool-list). */
const SCOPE_META_KEY = 'butik/scope';

/**
 * A sign-in through the connector can step its grant up (route.ts), so its list shows every tool with the
 * scope it needs, and says of a tool outside the grant that calling it asks for the scope.
 */
function stepUpListings(tool: RegisteredTool, listing: Tool): McpTool['stepUp'] {
  const granted: Tool = { ...listing, _meta: { ...listing._meta, [SCOPE_META_KEY]: tool.scope } };
  const note = `Needs scope ${tool.scope}, which this sign-in was not granted; calling it asks for it.`;
  return { granted, missing: { ...granted, description: `${listing.description ?? ''}\n${note}` } };
}

/**
 * The tools/list of a caller: an OAuth sign-in on the connector (`everyTool`) sees every tool with its scope;
 * anyone else sees the tools it may call.
 */
export function listingFor(catalog: McpCatalog, actor: Actor, everyTool: boolean): Tool[] {
  if (!everyTool) return catalog.tools.filter((entry) => canSee(entry.tool, actor)).map((entry) => entry.listing);
  return catalog.tools.map((entry) => (canSee(entry.tool, actor) ? entry.stepUp.granted : entry.stepUp.missing));
}

/** Every tool's MCP metadata, computed once from the registry (docs/architecture.md#mcp-post-apimcp). */
export function buildMcpCatalog(registry: Registry): McpCatalog {
  const tools = registry.tools.map(toMcpTool);
  const byName = new Map(tools.map((entry) => [entry.tool.name, entry]));
  return { tools, get: (name) => byName.get(name) };
}

/** Anonymous callers see the anonymous tools; a key also sees every tool its scopes allow. */
export function canSee(tool: RegisteredTool, actor: Actor): boolean {
  return tool.anonymous === true || hasScope(actor, tool.scope);
}
