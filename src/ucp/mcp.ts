import { createMcpHandler, McpServer, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/server';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BODY_LIMIT } from '../config.ts';
import { assertJsonDepth } from '../edge/json-body.ts';
import { corsHeaders, isAllowedOrigin } from '../mcp/origin.ts';
import type { Log } from '../log.ts';
import type { Services } from '../services.ts';
import { parseAgent, UCP_VERSION } from './agent-header.ts';
import type { callerAdmission, UcpCaller } from './caller.ts';
import { errorBody, UcpError } from './errors.ts';
import type { OperationName, RunOperation } from './operations.ts';
import { CompleteCheckout, CreateCheckout, UpdateCheckout } from './schemas.ts';

export const UCP_MCP_PATH = '/ucp/mcp';

const Id = z.string().min(1).meta({ description: 'The checkout session id.' });
const IdempotencyKey = z.string().min(1).max(255).meta({ description: 'Unique key for retry safety; the same key with the same arguments answers what the first call did.' });

/** The five tools of checkout-mcp.md, their arguments as mcp.openrpc.json names them. */
const TOOLS: Array<{ name: OperationName; description: string; input: z.ZodType }> = [
  {
    name: 'create_checkout',
    description: 'Create a checkout session (UCP Create Checkout). Arguments: the checkout object, as `checkout` or at the top level.',
    input: z.looseObject({ checkout: CreateCheckout.optional(), idempotency_key: IdempotencyKey.optional() }),
  },
  { name: 'get_checkout', description: 'Get a checkout session (UCP Get Checkout).', input: z.object({ id: Id }) },
  {
    name: 'update_checkout',
    description: 'Update a checkout session (UCP Update Checkout): a sent member replaces the stored one, an absent one is kept.',
    input: z.looseObject({ id: Id, checkout: UpdateCheckout.optional(), idempotency_key: IdempotencyKey.optional() }),
  },
  {
    name: 'complete_checkout',
    description: 'Place the order (UCP Complete Checkout) with a payment instrument: `payment_data`, or `payment` with its selected instrument.',
    input: z.object({
      id: Id,
      payment_data: CompleteCheckout.shape.payment_data.optional(),
      payment: z.looseObject({ selected_instrument_id: z.string().optional(), instruments: z.array(z.looseObject({})).optional() }).optional(),
      risk_signals: z.record(z.string(), z.unknown()).optional(),
      idempotency_key: IdempotencyKey,
    }),
  },
  { name: 'cancel_checkout', description: 'Cancel a checkout session (UCP Cancel Checkout).', input: z.object({ id: Id, idempotency_key: IdempotencyKey }) },
];

const LISTING = TOOLS.map((tool) => {
  const { $schema: _dialect, ...inputSchema } = z.toJSONSchema(tool.input, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' });
  return { name: tool.name, description: tool.description, inputSchema: inputSchema as { type: 'object' } };
});

type Arguments = Record<string, unknown>;

function isRecord(value: unknown): value is Arguments {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The REST body an MCP call stands for: the checkout object (wrapped or flat), or complete's payment_data. */
function bodyOf(operation: OperationName, args: Arguments): Arguments {
  const { id: _id, idempotency_key: _key, _meta: _meta, ...rest } = args;
  if (operation === 'create_checkout' || operation === 'update_checkout') return isRecord(rest.checkout) ? rest.checkout : rest;
  if (operation !== 'complete_checkout') return {};
  const payment = isRecord(rest.payment) ? rest.payment : undefined;
  const instruments = Array.isArray(payment?.instruments) ? payment.instruments.filter(isRecord) : [];
  const selected = instruments.find((instrument) => instrument.id === payment?.selected_instrument_id) ?? instruments[0];
  return {
    ...(rest.payment_data !== undefined ? { payment_data: rest.payment_data } : selected ? { payment_data: selected } : {}),
    ...(rest.risk_signals !== undefined ? { risk_signals: rest.risk_signals } : {}),
  };
}

/** UCP failures as JSON-RPC errors whose `data` is the UCP error structure (checkout-mcp.md, Error Handling). */
function rpcError(status: number, text: string): ProtocolError {
  const data: unknown = JSON.parse(text);
  const detail = isRecord(data) && typeof data.detail === 'string' ? data.detail : 'UCP error';
  const code = status === 400 || status === 404 || status === 422 ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError;
  return new ProtocolError(code, detail, data);
}

type CallContext = { requestId: string; log: Log; caller: UcpCaller };

async function callTool(run: RunOperation, request: CallToolRequest, context: CallContext): Promise<CallToolResult> {
  const { name } = request.params;
  const tool = TOOLS.find((candidate) => candidate.name === name);
  if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
  const args: Arguments = request.params.arguments ?? {};
  const meta = request.params._meta as { ucp?: { profile?: unknown; version?: unknown } } | undefined;
  let agent;
  try {
    const profile = meta?.ucp?.profile;
    if (typeof profile !== 'string' || profile === '') {
      throw new UcpError(422, 'INVALID_REQUEST', 'Every call must name the platform profile in _meta.ucp.profile.');
    }
    const version = typeof meta?.ucp?.version === 'string' ? meta.ucp.version : UCP_VERSION;
    agent = parseAgent(`profile=${JSON.stringify(profile)};version=${JSON.stringify(version)}`);
  } catch (error) {
    if (error instanceof UcpError) throw rpcError(error.status, JSON.stringify(errorBody(error)));
    throw error;
  }
  const key = args.idempotency_key;
  const answer = await run({
    operation: tool.name,
    id: typeof args.id === 'string' ? args.id : '',
    agent,
    caller: context.caller,
    body: bodyOf(tool.name, args),
    idempotencyKey: typeof key === 'string' && key !== '' ? key : undefined,
    requestId: context.requestId,
    log: context.log,
  });
  if (answer.status >= 400) throw rpcError(answer.status, answer.text);
  const structuredContent = JSON.parse(answer.text) as Record<string, unknown>;
  return { content: [{ type: 'text', text: answer.text }], structuredContent };
}

/**
 * POST /ucp/mcp, stateless streamable HTTP like /api/mcp: a fresh server per request, the `ucp` rate limit
 * per IP, and a foreign Origin refused. The platform names itself in each call's _meta.ucp.profile.
 */
export const ucpMcpRoute = async (
  app: FastifyInstance,
  { services, run, admit }: { services: Services; run: RunOperation; admit: ReturnType<typeof callerAdmission> },
) => {
  const calls = new WeakMap<object, CallContext>();
  const handler = createMcpHandler((ctx) => {
    const context = ctx.authInfo === undefined ? undefined : calls.get(ctx.authInfo);
    if (!context) throw new Error('UCP MCP request reached the server factory without its context');
    const mcp = new McpServer({ name: 'butik-ucp', title: 'Butik UCP checkout', version: UCP_VERSION }, {
      instructions: 'UCP 2026-01-11 checkout tools. Name your platform profile in every call\'s _meta.ucp.profile. '
        + 'Amounts are integers in the minor unit of the checkout currency.',
    });
    mcp.server.registerCapabilities({ tools: { listChanged: false } });
    mcp.server.setRequestHandler('tools/list', () => ({ tools: LISTING }));
    mcp.server.setRequestHandler('tools/call', (request) => callTool(run, request, context));
    return mcp;
  }, {
    legacy: 'stateless',
    maxRequestBodySize: BODY_LIMIT,
    onerror: (error) => app.log.warn({ err: error }, 'UCP MCP request rejected or failed'),
  });
  app.addHook('onClose', () => handler.close());

  app.post(UCP_MCP_PATH, async (request, reply) => {
    const { origin } = request.headers;
    if (origin !== undefined && !isAllowedOrigin(origin, services.baseUrl, services.config.allowedOrigins)) {
      const refusal = new UcpError(403, 'FORBIDDEN', `Origin ${JSON.stringify(origin)} may not call ${UCP_MCP_PATH}.`);
      return reply.code(403).type('application/json').send(JSON.stringify(errorBody(refusal)));
    }
    const limit = await services.gate.limiter.consume('ucp', request.ip);
    if (limit.exceeded) {
      const refusal = new UcpError(429, 'RATE_LIMITED', `Too many requests; retry in ${limit.resetSeconds} seconds.`);
      return reply.code(429).header('retry-after', String(limit.resetSeconds)).type('application/json').send(JSON.stringify(errorBody(refusal)));
    }
    let caller: UcpCaller;
    try {
      caller = await admit(request.ip, request.headers);
    } catch (error) {
      if (!(error instanceof UcpError)) throw error;
      if (error.options.retryAfter !== undefined) reply.header('retry-after', String(error.options.retryAfter));
      return reply.code(error.status).type('application/json').send(JSON.stringify(errorBody(error)));
    }
    const authInfo = { token: '', clientId: 'ucp-platform', scopes: [] };
    calls.set(authInfo, { requestId: request.id, log: request.log, caller });
    const body = typeof request.body === 'string' ? request.body : '';
    try {
      assertJsonDepth(body);
    } catch (error) {
      const refusal = new UcpError(400, 'INVALID_REQUEST', error instanceof Error ? error.message : 'The request body nests too deep.');
      return reply.code(400).type('application/json').send(JSON.stringify(errorBody(refusal)));
    }
    const web = new Request(new URL(request.url, services.baseUrl), {
      method: 'POST',
      headers: Object.entries(request.headers).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value] as [string, string]] : [])),
      body,
    });
    const response = await handler.fetch(web, { authInfo });
    response.headers.set('cache-control', 'no-store, no-transform');
    return reply.headers(origin === undefined ? {} : corsHeaders(origin)).send(response);
  });
};
