import { McpServer, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/server';
import type { Actor } from '../access/actor.ts';
import { parseIdempotencyKey } from '../calls/idempotency-key.ts';
import { parseIfMatch, quoteEtag } from '../calls/if-match.ts';
import { answerText, problemAnswer, runCall } from '../calls/run-call.ts';
import type { CallOutcome, HeldApproval } from '../calls/run-call.ts';
import type { Log } from '../log.ts';
import { readSettings } from '../shop/settings.ts';
import type { ToolRuntime } from '../tools/invoke.ts';
import { listAppViews, readAppView } from './apps/resources.ts';
import type { ViewShop } from './apps/resources.ts';
import { SERVER_CAPABILITIES, SERVER_INFO } from './server-card.ts';
import { canSee, listingFor } from './tool-catalog.ts';
import type { McpCatalog, McpTool } from './tool-catalog.ts';

/** Where an MCP tools/call carries its Idempotency-Key (docs/behaviour.md#idempotency-over-mcp). */
export const IDEMPOTENCY_META_KEY = 'butik/idempotencyKey';
/** Marks a result that was replayed from an earlier call with the same key. */
export const REPLAYED_META_KEY = 'butik/idempotentReplayed';
/** A single-record result's version token, the ETag of REST (docs/behaviour.md#no-lost-updates). */
export const ETAG_META_KEY = 'butik/etag';
/** Where a tools/call of an update carries the version it was made against, REST's If-Match. */
export const IF_MATCH_META_KEY = 'butik/ifMatch';

const INSTRUCTIONS = 'Tools over a small web shop and content site. Amounts are integer øre (1/100 DKK) including '
  + '25 % VAT; a shop whose settings.currency is not DKK counts them in that currency\'s minor unit (cents for USD). '
  + 'A failed call returns isError with an RFC 9457 problem whose resolution says what to do next. '
  + `Retry writes safely by sending the same _meta["${IDEMPOTENCY_META_KEY}"] again.`;

/** Who is calling and how to report about it; fixed for the one HTTP request a server instance serves. */
export type McpCallContext = {
  runtime: ToolRuntime;
  actor: Actor;
  requestId: string;
  log: Log;
  /** An OAuth sign-in on the connector, which can step its grant up: its tools/list shows every tool (listingFor). */
  listsEveryTool: boolean;
  /** Whether the shop sells over UCP, so that a cart view may link to the buyer's page (docs/behaviour.md#mcp-apps). */
  sellsOverUcp: boolean;
};

/**
 * A fresh MCP server for one HTTP request (a stateless transport is single-use). Tools are served
 * through low-level handlers so that tools/list shows the registry's own JSON Schemas and tools/call
 * runs the REST code path, validation included, instead of the SDK's second validator.
 */
export function createMcpServer(catalog: McpCatalog, context: McpCallContext): McpServer {
  const mcp = new McpServer(SERVER_INFO, {
    instructions: INSTRUCTIONS,
    // The list depends on the caller's key, so no shared cache may keep it.
    cacheHints: { 'tools/list': { cacheScope: 'private', ttlMs: 0 } },
  });
  mcp.server.registerCapabilities(SERVER_CAPABILITIES);
  mcp.server.setRequestHandler('tools/list', () => ({ tools: listingFor(catalog, context.actor, context.listsEveryTool) }));
  mcp.server.setRequestHandler('tools/call', (request) => callTool(catalog, context, request));
  // The MCP Apps views hold no shop data (it comes in tool results), so every caller may list and read them.
  mcp.server.setRequestHandler('resources/list', async () => ({ resources: listAppViews(await viewShop(context)) }));
  mcp.server.setRequestHandler('resources/read', async (request) => {
    const read = await readAppView(request.params.uri, await viewShop(context));
    if (!read) throw new ProtocolError(ProtocolErrorCode.ResourceNotFound, `Unknown resource: ${request.params.uri}; resources/list names the ones this server has.`);
    return read;
  });
  return mcp;
}

async function viewShop(context: McpCallContext): Promise<ViewShop> {
  const { currency } = await readSettings(context.runtime.db);
  return { baseUrl: context.runtime.baseUrl, currency, checkout: context.sellsOverUcp };
}

async function callTool(catalog: McpCatalog, context: McpCallContext, request: CallToolRequest): Promise<CallToolResult> {
  const { name } = request.params;
  const entry = catalog.get(name);
  if (!entry) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
  // A tool the caller may not see stays out of its list and is an unknown tool to it (docs/behaviour.md#the-tool-list), but the
  // message says what would open it: the tool list is public in the OpenAPI document, so nothing is revealed.
  if (!canSee(entry.tool, context.actor)) {
    const who = context.actor.kind === 'anonymous' ? 'an API key' : 'a key';
    throw new ProtocolError(ProtocolErrorCode.InvalidParams,
      `Unknown tool: ${name} is not available to this caller; it exists and needs ${who} with scope ${entry.tool.scope}.`);
  }
  let idempotencyKey: string | undefined;
  let ifMatch: string[] | undefined;
  try {
    idempotencyKey = parseIdempotencyKey(request.params._meta?.[IDEMPOTENCY_META_KEY], `_meta["${IDEMPOTENCY_META_KEY}"]`);
    ifMatch = parseIfMatch(request.params._meta?.[IF_MATCH_META_KEY], `_meta["${IF_MATCH_META_KEY}"]`);
  } catch (error) {
    return toolResult(entry, { ...problemAnswer({ ...context, channel: 'mcp' }, error), replayed: false });
  }
  const outcome = await runCall({
    runtime: context.runtime,
    tool: entry.tool,
    actor: context.actor,
    input: request.params.arguments ?? {},
    channel: 'mcp',
    requestId: context.requestId,
    log: context.log,
    idempotencyKey,
    ...(ifMatch !== undefined ? { ifMatch } : {}),
  });
  return toolResult(entry, outcome);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A call's outcome as an MCP tool result: success → structuredContent (an object, so a result that is not
 * one is wrapped as `{result}`) plus the result as JSON text; failure → isError with the problem JSON as text
 * and no structuredContent, which SDK clients would otherwise validate against the output schema. Warnings go
 * into structuredContent as `warnings` (its output schema names the member) and, for hosts that read text
 * only, into a text of their own after the result's, so the first text stays exactly the result's JSON.
 */
function toolResult(entry: McpTool, outcome: CallOutcome): CallToolResult {
  const metaMembers = {
    ...(outcome.replayed ? { [REPLAYED_META_KEY]: true } : {}),
    ...(outcome.ok && outcome.etag !== undefined ? { [ETAG_META_KEY]: quoteEtag(outcome.etag) } : {}),
  };
  const meta = Object.keys(metaMembers).length > 0 ? { _meta: metaMembers } : {};
  if (!outcome.ok) return { content: [{ type: 'text', text: outcome.text ?? answerText(outcome) }], isError: true, ...meta };
  if (outcome.pending) return heldResult(outcome.approval, meta);
  const shaped = entry.wrapsResult ? { result: outcome.result } : outcome.result;
  if (!isRecord(shaped)) throw new Error(`${entry.tool.name} returned a non-object its output schema does not wrap`);
  const warnings = outcome.warnings ?? [];
  const structuredContent = warnings.length > 0 ? { ...shaped, warnings } : shaped;
  const warningTexts = warnings.map((warning) => ({ type: 'text' as const, text: `Warning (${warning.code}): ${warning.message}` }));
  return { content: [{ type: 'text', text: JSON.stringify(outcome.result) }, ...warningTexts], structuredContent, ...meta };
}

/**
 * A held call is not an error: nothing was written and a person decides. structuredContent carries the same
 * `pending` and `approval` as the REST body (the output schema admits it, tool-catalog.ts); the text says what to do.
 */
function heldResult(approval: HeldApproval, meta: Pick<CallToolResult, '_meta'>): CallToolResult {
  const text = `This call was held for a person's approval and nothing was changed yet: ${approval.reason}. `
    + `Ask the shop owner to approve it at ${approval.url} (before ${approval.expiresAt}), then poll approvals.get `
    + `with {"id": "${approval.id}"} until its status is approved (its result is there), denied, expired or failed. Do not send the call again.`;
  return { content: [{ type: 'text', text }], structuredContent: { pending: true, approval }, ...meta };
}
