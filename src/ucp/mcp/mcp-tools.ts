import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { portableSchema } from '../../mcp/lean-schema.ts';
import type { OperationName, UcpAnswer } from '../call/call.ts';
import { CreateCheckout, Instrument, UpdateCheckout } from '../checkout/schemas.ts';

type Json = Record<string, unknown>;

const Id = z.string().min(1).meta({ description: 'The checkout session id.' });
/** 2026-04-08's request metadata: the platform's profile (and optionally its version) under "ucp-agent". */
const Meta = z.looseObject({
  'ucp-agent': z.looseObject({ profile: z.string().min(1), version: z.string().optional() }),
}).meta({ description: 'Request metadata: {"ucp-agent": {"profile": "https://platform.example/profile"}}.' });

const IdempotencyKey = z.string().min(1).max(255).meta({ description: 'Unique key for retry safety; the same key with the same arguments answers what the first call did.' });

const object = { type: 'object' };
const objects = { type: 'array', items: object };

/**
 * The checkout every tool answers, as far as a client needs to check it: UCP's own schema is remote
 * (checkout_resp.json), and clients neither fetch remote schemas nor forgive a structuredContent that
 * fails its output schema, so this names the members Butik always sends and leaves their insides open.
 */
const CHECKOUT: Json = {
  type: 'object',
  // Only `ucp` always: from 2026-04-08 on a business outcome (an unknown item, too little stock) is a result without a session.
  required: ['ucp'],
  properties: {
    ucp: object,
    id: { type: 'string' },
    status: { enum: ['incomplete', 'requires_escalation', 'ready_for_complete', 'complete_in_progress', 'completed', 'canceled'] },
    currency: { type: 'string' },
    line_items: objects,
    totals: objects,
    links: objects,
    messages: objects,
    buyer: object,
    payment: object,
    fulfillment: object,
    discounts: object,
    expires_at: { type: 'string' },
    order: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
  },
};

type UcpTool = { name: OperationName; title: string; description: string; input: z.ZodType; annotations: Omit<NonNullable<Tool['annotations']>, 'title'> };

const reads = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const writes = (hints: { destructive: boolean; idempotent: boolean; openWorld?: boolean }) => ({
  readOnlyHint: false, destructiveHint: hints.destructive, idempotentHint: hints.idempotent, openWorldHint: hints.openWorld ?? false,
});

/** The five tools of checkout-mcp.md, their arguments as mcp.openrpc.json names them. */
const TOOLS: UcpTool[] = [
  {
    name: 'create_checkout',
    title: 'Create checkout',
    description: 'Create a checkout session (UCP Create Checkout). Arguments: the checkout object, as `checkout` or at the top level.',
    input: z.looseObject({ meta: Meta.optional(), checkout: CreateCheckout.optional(), idempotency_key: IdempotencyKey.optional() }),
    annotations: writes({ destructive: false, idempotent: false }),
  },
  {
    name: 'get_checkout',
    title: 'Get checkout',
    description: 'Get a checkout session (UCP Get Checkout).',
    input: z.object({ meta: Meta.optional(), id: Id }),
    annotations: reads,
  },
  {
    name: 'update_checkout',
    title: 'Update checkout',
    description: 'Update a checkout session (UCP Update Checkout): a sent member replaces the stored one, an absent one is kept.',
    input: z.looseObject({ meta: Meta.optional(), id: Id, checkout: UpdateCheckout.optional(), idempotency_key: IdempotencyKey.optional() }),
    annotations: writes({ destructive: false, idempotent: true }),
  },
  {
    name: 'complete_checkout',
    title: 'Complete checkout',
    description: 'Place the order (UCP Complete Checkout) with a payment instrument: `payment.instruments` (the selected one, '
      + 'or the only one), or 2026-01-11\'s `payment_data`; optionally `signals`; and `ap2.checkout_mandate`, the AP2 checkout mandate, '
      + 'which a platform that negotiated the AP2 mandate extension must send.',
    input: z.looseObject({
      meta: Meta.optional(),
      id: Id,
      payment_data: Instrument.optional(),
      payment: z.looseObject({ selected_instrument_id: z.string().optional(), instruments: z.array(z.looseObject({})).optional() }).optional(),
      risk_signals: z.record(z.string(), z.unknown()).optional(),
      signals: z.record(z.string(), z.unknown()).optional(),
      ap2: z.looseObject({ checkout_mandate: z.string() }).optional(),
      idempotency_key: IdempotencyKey,
    }),
    // The payment processor is outside the shop.
    annotations: writes({ destructive: false, idempotent: false, openWorld: true }),
  },
  {
    name: 'cancel_checkout',
    title: 'Cancel checkout',
    description: 'Cancel a checkout session (UCP Cancel Checkout).',
    input: z.object({ meta: Meta.optional(), id: Id, idempotency_key: IdempotencyKey }),
    annotations: writes({ destructive: true, idempotent: true }),
  },
];

export const UCP_TOOL_NAMES: ReadonlySet<string> = new Set(TOOLS.map((tool) => tool.name));

/** An input schema as tools/list shows it, portable like the shop tools' own. */
function inputSchemaOf(input: z.ZodType): Tool['inputSchema'] {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(input, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' });
  return { ...portableSchema(schema), type: 'object' };
}

/** tools/list, computed once. */
export const UCP_TOOL_LISTING: Tool[] = TOOLS.map((tool) => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: inputSchemaOf(tool.input),
  outputSchema: { ...CHECKOUT, type: 'object' },
  annotations: { title: tool.title, ...tool.annotations },
}));

/**
 * JSON-RPC's own code for "the server understood the call and refused it" (the implementation-defined range),
 * which later UCP revisions use for refusals that are not the server's fault.
 */
const REFUSED = -32000;

/** The code overview.md gives discovery and version failures (an unsupported version, an unreadable profile). */
const NEGOTIATION_FAILED = -32001;
const NEGOTIATION_CODES = new Set(['version_unsupported', 'invalid_profile_url', 'profile_unreachable', 'profile_malformed']);

/**
 * A UCP failure as the JSON-RPC error of the UCP MCP binding, the UCP error structure in `data`. Only a
 * fault of the server is -32603 (Internal error), the one code hosts retry as a server failure: a request
 * the caller can fix is -32602 (Invalid params), and a refusal the caller must act on (declined payment, a
 * session that is completed or canceled, an idempotency conflict, a rate limit) is -32000, with
 * `retry_after` when waiting helps.
 */
export function rpcError(answer: UcpAnswer): ProtocolError {
  const data: unknown = JSON.parse(answer.text);
  const body: Json = typeof data === 'object' && data !== null && !Array.isArray(data) ? data as Json : {};
  const detail = typeof body.detail === 'string' ? body.detail : typeof body.content === 'string' ? body.content : 'UCP error';
  const { status } = answer;
  const code = typeof body.code === 'string' && NEGOTIATION_CODES.has(body.code) ? NEGOTIATION_FAILED
    : status === 400 || status === 404 || status === 422 ? ProtocolErrorCode.InvalidParams
    : status >= 500 && status !== 503 ? ProtocolErrorCode.InternalError
      : REFUSED;
  return new ProtocolError(code, detail, answer.retryAfter === undefined ? body : { ...body, retry_after: answer.retryAfter });
}
