import type { z } from 'zod';
import type { ToolScope } from '../access/actor.ts';
import type { ToolContext } from '../context.ts';
import type { Warning } from '../schema/warning.ts';

export type ToolAnnotations = {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  /** False for every tool: they touch only this shop's own data, never the outside world. */
  openWorldHint: boolean;
};

/** A deprecated tool (docs/behaviour.md#versioning-and-deprecation) announces itself with RFC 9745 / RFC 8594 headers and in OpenAPI. */
export type Deprecation = { since: Date; sunset: Date; link: string };

/**
 * Written as a method's type so that, like the handler, a tool's hook stays assignable to AnyTool's (methods are
 * compared bivariantly; a function-typed property would not be).
 */
type VersionHook<R, I> = { hook(result: R, ctx: ToolContext, input: I): Promise<string | undefined> }['hook'];

export type ToolDefinition<I extends z.ZodType, O extends z.ZodType> = {
  /** `domain.verb_noun`; the REST path segment and the MCP tool name. */
  name: string;
  description: string;
  /** The scope a caller needs; `any` for a tool every signed-in caller has (approvals.get, approvals.list). */
  scope: ToolScope;
  /** Open without credentials (only the five public read tools). */
  anonymous?: boolean;
  annotations: ToolAnnotations;
  input: I;
  output: O;
  deprecated?: Deprecation;
  /** Warnings an accepted input earns; judged from the input alone, so a replay repeats them. */
  warnings?(input: z.output<I>): Warning[];
  handler(input: z.output<I>, ctx: ToolContext): Promise<z.input<O> | VersionedResult<z.input<O>>>;
  /**
   * For a tool that reads or writes one record: how it hands out that record's version token (record-version.ts)
   * as ETag / _meta["butik/etag"]. Either a hook run after the handler in the handler's transaction, so it is the
   * version of what was read (from the result or, when the result does not name the record, the input); or
   * 'with-result' for a read whose one statement returns the token with the record: its handler answers a
   * VersionedResult, and it needs no transaction.
   */
  version?: VersionHook<z.output<O>, z.output<I>> | 'with-result';
};

export type AnyTool = ToolDefinition<z.ZodType, z.ZodType>;

/**
 * A read's result together with its record's version token, both from one statement (record-version.ts rowVersion).
 * Only the pipeline (invoke.ts) unwraps it; the token is handed out as ETag / _meta["butik/etag"].
 */
export class VersionedResult<T> {
  constructor(readonly result: T, readonly version: string) {}
}

/** One declaration per tool drives REST, OpenAPI and MCP (docs/architecture.md#the-idea-in-one-paragraph). */
export function defineTool<I extends z.ZodType, O extends z.ZodType>(tool: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return tool;
}

export const readOnly = (title: string): ToolAnnotations =>
  ({ title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
export const write = (title: string, options: { idempotent: boolean; destructive?: boolean }): ToolAnnotations => ({
  title, readOnlyHint: false, destructiveHint: options.destructive ?? false, idempotentHint: options.idempotent, openWorldHint: false,
});
