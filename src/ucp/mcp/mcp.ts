import { McpServer, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { mountMcp } from '../../edge/mcp-mount.ts';
import type { McpRefusal } from '../../edge/mcp-mount.ts';
import type { Log } from '../../log.ts';
import type { AppDeps } from '../../deps.ts';
import { parseAgent } from '../core/agent-header.ts';
import { NEWEST_VERSION } from '../core/versions.ts';
import type { callerAdmission, UcpCaller } from '../identity/caller.ts';
import { errorBody, UcpError } from '../core/errors.ts';
import { rpcError, UCP_TOOL_LISTING, UCP_TOOL_NAMES } from './mcp-tools.ts';
import type { OperationName, RunOperation, RunShopping } from '../call/call.ts';
import { callShoppingTool, isShoppingTool, SHOPPING_TOOL_LISTING } from './shopping-mcp.ts';
import type { VerifyRequest } from '../signatures/verify-request.ts';

export const UCP_MCP_PATH = '/ucp/mcp';

type Arguments = Record<string, unknown>;

function isRecord(value: unknown): value is Arguments {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The REST body an MCP call stands for: the checkout object (wrapped or flat), or complete's payment (2026-01-11's
 * payment_data, or the payment instruments of later versions, wrapped in `checkout` or not) and signals.
 */
function bodyOf(operation: OperationName, args: Arguments): Arguments {
  const { id: _id, idempotency_key: _key, _meta: _meta, meta: _agentMeta, ...rest } = args;
  const checkout = isRecord(rest.checkout) ? rest.checkout : rest;
  if (operation === 'create_checkout' || operation === 'update_checkout') return checkout;
  if (operation !== 'complete_checkout') return {};
  const payment = isRecord(checkout.payment) ? checkout.payment : undefined;
  const instruments = Array.isArray(payment?.instruments) ? payment.instruments.filter(isRecord) : [];
  // 2026-01-11's MCP tools named the paying instrument by selected_instrument_id.
  const named = instruments.filter((instrument) => instrument.id === payment?.selected_instrument_id);
  const selectedInstruments = named.length === 1 ? [{ ...named[0], selected: true }] : instruments;
  return {
    ...(checkout.payment_data !== undefined ? { payment_data: checkout.payment_data } : {}),
    ...(instruments.length > 0 ? { payment: { instruments: selectedInstruments } } : {}),
    ...Object.fromEntries(['risk_signals', 'signals', 'ap2'].filter((name) => checkout[name] !== undefined).map((name) => [name, checkout[name]])),
  };
}

/**
 * The platform's profile and version: 2026-04-08 sends them in the arguments' `meta["ucp-agent"]`; earlier
 * clients in the request's `_meta.ucp`, which is still read.
 */
function agentOf(request: CallToolRequest, args: Arguments): { profile: unknown; version: unknown } {
  const meta = isRecord(args.meta) && isRecord(args.meta['ucp-agent']) ? args.meta['ucp-agent'] : undefined;
  const legacy = (request.params._meta as { ucp?: { profile?: unknown; version?: unknown } } | undefined)?.ucp;
  return { profile: meta?.profile ?? legacy?.profile, version: meta?.version ?? legacy?.version };
}

type CallContext = { requestId: string; log: Log; caller: UcpCaller };

function isOperation(name: string): name is OperationName {
  return UCP_TOOL_NAMES.has(name);
}

async function callTool(run: RunOperation, request: CallToolRequest, context: CallContext): Promise<CallToolResult> {
  const { name } = request.params;
  if (!isOperation(name)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
  const args: Arguments = request.params.arguments ?? {};
  let agent;
  try {
    const { profile, version } = agentOf(request, args);
    if (typeof profile !== 'string' || profile === '') {
      throw new UcpError(422, 'INVALID_REQUEST', 'Every call must name the platform profile in arguments.meta["ucp-agent"].profile.');
    }
    agent = parseAgent(`profile=${JSON.stringify(profile)}${typeof version === 'string' ? `;version=${JSON.stringify(version)}` : ''}`);
  } catch (error) {
    if (error instanceof UcpError) throw rpcError({ status: error.status, text: JSON.stringify(errorBody(error)) });
    throw error;
  }
  const key = args.idempotency_key;
  const answer = await run({
    operation: name,
    id: typeof args.id === 'string' ? args.id : '',
    agent,
    caller: context.caller,
    body: bodyOf(name, args),
    idempotencyKey: typeof key === 'string' && key !== '' ? key : undefined,
    requestId: context.requestId,
    log: context.log,
  });
  if (answer.status >= 400) throw rpcError(answer);
  const structuredContent = JSON.parse(answer.text) as Record<string, unknown>;
  return { content: [{ type: 'text', text: answer.text }], structuredContent };
}

const REFUSALS: Record<McpRefusal['kind'], { status: number; code: string }> = {
  origin_not_allowed: { status: 403, code: 'FORBIDDEN' },
  invalid_json: { status: 400, code: 'INVALID_REQUEST' },
  method_not_allowed: { status: 405, code: 'METHOD_NOT_ALLOWED' },
};

function sendUcpError(reply: FastifyReply, error: UcpError, headers: Record<string, string> = {}): FastifyReply {
  return reply.code(error.status).headers(headers).type('application/json').send(JSON.stringify(errorBody(error)));
}

/**
 * POST /ucp/mcp on the same mount as /api/mcp: a fresh server per request, the `ucp` rate limit per IP, and a
 * foreign Origin refused; every refusal in UCP's JSON. The platform names itself in each call's _meta.ucp.profile.
 */
export const ucpMcpRoute = async (
  app: FastifyInstance,
  { deps, run, shopping, admit, verify }: { deps: AppDeps; run: RunOperation; shopping: RunShopping; admit: ReturnType<typeof callerAdmission>; verify: VerifyRequest },
) => {
  mountMcp<CallContext>(app, {
    path: UCP_MCP_PATH,
    label: 'UCP MCP',
    baseUrl: () => deps.baseUrl,
    allowedOrigins: deps.config.allowedOrigins,
    refuse: (reply, refusal, headers) => {
      const { status, code } = REFUSALS[refusal.kind];
      return sendUcpError(reply, new UcpError(status, code, refusal.message), headers);
    },
    async admit(request, reply, cors) {
      const limit = await deps.gate.limiter.consume('ucp', request.ip);
      if (limit.exceeded) {
        reply.header('retry-after', String(limit.resetSeconds));
        sendUcpError(reply, new UcpError(429, 'RATE_LIMITED', `Too many requests; retry in ${limit.resetSeconds} seconds.`), cors);
        return undefined;
      }
      try {
        const signedBy = await verify(request);
        const caller = await admit(request.ip, request.headers, signedBy);
        return { context: { requestId: request.id, log: request.log, caller }, headers: cors, clientId: 'ucp-platform', scopes: [] };
      } catch (error) {
        if (!(error instanceof UcpError)) throw error;
        if (error.options.retryAfter !== undefined) reply.header('retry-after', String(error.options.retryAfter));
        if (error.options.challenge !== undefined) reply.header('www-authenticate', error.options.challenge);
        sendUcpError(reply, error, cors);
        return undefined;
      }
    },
    // This face loads the SDK with the rest of UCP (src/app.ts), which an idle shop without UCP never does.
    loadServer: async () => (context) => {
      const mcp = new McpServer({ name: 'butik-ucp', title: 'Butik UCP checkout', version: NEWEST_VERSION }, {
        instructions: 'UCP checkout tools (2026-04-08, 2026-01-23, 2026-01-11) and 2026-04-08 catalog and cart tools '
          + '(search_catalog, lookup_catalog, get_product, *_cart). Name your platform profile in every call\'s '
          + 'arguments.meta["ucp-agent"].profile. Amounts are integers in the minor unit of the shop currency.',
      });
      mcp.server.registerCapabilities({ tools: { listChanged: false } });
      mcp.server.setRequestHandler('tools/list', () => ({ tools: [...UCP_TOOL_LISTING, ...SHOPPING_TOOL_LISTING] }));
      mcp.server.setRequestHandler('tools/call', (request) => {
        const { name } = request.params;
        return isShoppingTool(name) ? callShoppingTool(shopping, name, request, context) : callTool(run, request, context);
      });
      return mcp;
    },
  });
};
