import { errorBody } from '../core/errors.ts';
import type { UcpError } from '../core/errors.ts';
import { publishedHandlers } from '../payments/payment-handlers.ts';
import type { PaymentHandlerDeclaration } from '../payments/payment-handlers.ts';
import { usesRegistries } from '../core/versions.ts';
import type { UcpVersion } from '../core/versions.ts';

/**
 * The per-version edge of UCP's answers. Sessions and orders are rendered once, in 2026-01-11's shape (what is
 * stored for ended sessions and placed orders); each answer is then shaped for the version its request
 * negotiated: the `ucp` block, where payment handlers live, the sign of discount totals, the order's currency.
 */

type Json = Record<string, unknown>;

/** What an answer is shaped with. */
export type Edge = {
  version: UcpVersion;
  handlers: readonly PaymentHandlerDeclaration[];
  /** The capability names the platform's profile lists; null when it could not be read (then all of ours apply). */
  platformCapabilities: readonly string[] | null;
  baseUrl: string;
  /** Whether the call negotiated the AP2 mandate extension (ap2-mandates.ts): its checkouts then name it and are signed. */
  ap2: boolean;
};

export const CHECKOUT_CAPABILITY = 'dev.ucp.shopping.checkout';
/** The AP2 mandate extension (ap2-mandates.ts), named here so shaping an answer never loads its verifier. */
export const AP2_MANDATE_CAPABILITY = 'dev.ucp.shopping.ap2_mandate';
export const ORDER_CAPABILITY = 'dev.ucp.shopping.order';
/** The extensions of checkout Butik implements. */
export const CHECKOUT_EXTENSIONS = ['dev.ucp.shopping.fulfillment', 'dev.ucp.shopping.discount', 'dev.ucp.shopping.buyer_consent'] as const;

/** 2026-04-08 signs totals: discounts are negative amounts (types/total.json). */
const signsTotals = (version: UcpVersion) => version >= '2026-04-08';
/** Context (the buyer's country, language, intent) arrived in 2026-01-23. */
const hasContext = (version: UcpVersion) => version >= '2026-01-23';

/**
 * The capabilities an answer names: its root (the call being made) and the extensions the platform speaks too, or
 * all of them when its profile could not be read.
 */
function active(root: string, extensions: readonly string[], platform: readonly string[] | null): string[] {
  return [root, ...extensions.filter((name) => platform === null || platform.includes(name))];
}

/** 2026-01-11 lists capabilities by name; later versions key a registry by name, each with its versions. */
function capabilityRegistry(version: UcpVersion, names: readonly string[]): unknown {
  return usesRegistries(version)
    ? Object.fromEntries(names.map((name) => [name, [{ version }]]))
    : names.map((name) => ({ name, version }));
}

/** Payment handlers keyed by their reverse-domain name, as profiles and checkouts publish them from 2026-01-23 on. */
export function handlerRegistry(handlers: readonly PaymentHandlerDeclaration[]): Record<string, Json[]> {
  const registry: Record<string, Json[]> = {};
  for (const handler of publishedHandlers(handlers)) {
    const { name, config_schema: schema, instrument_schemas: _instrumentSchemas, ...entry } = handler;
    (registry[name] ??= []).push({ ...entry, schema });
  }
  return registry;
}

function signedTotals(totals: unknown): unknown {
  if (!Array.isArray(totals)) return totals;
  return totals.map((total: Json) => (total.type === 'discount' && typeof total.amount === 'number' ? { ...total, amount: -total.amount } : total));
}

type Instrument = Json & { id?: unknown };

/** A checkout session in the negotiated version. */
export function presentCheckout(view: Json, edge: Edge): Json {
  const { version } = edge;
  const { ucp: _stored, payment, totals, context, ...rest } = view;
  const { handlers: _handlers, selected_instrument_id: selected, instruments, ...paymentRest } = (payment ?? {}) as Json;
  const capabilities = capabilityRegistry(version, [
    ...active(CHECKOUT_CAPABILITY, CHECKOUT_EXTENSIONS, edge.platformCapabilities), ...(edge.ap2 ? [AP2_MANDATE_CAPABILITY] : []),
  ]);
  // A session that needs the buyer names where the buyer continues: the shop's own checkout page for it.
  const handoff = view.status === 'requires_escalation' && view.continue_url === undefined
    ? { continue_url: `${edge.baseUrl}/checkout/${String(view.id)}` } : {};
  const shown = { ...rest, ...(context !== undefined && hasContext(version) ? { context } : {}), ...handoff };
  if (!usesRegistries(version)) {
    return {
      ucp: { version, capabilities },
      ...shown,
      totals,
      payment: {
        handlers: publishedHandlers(edge.handlers), ...paymentRest,
        ...(selected !== undefined ? { selected_instrument_id: selected } : {}), ...(instruments !== undefined ? { instruments } : {}),
      },
    };
  }
  const sent = Array.isArray(instruments) ? (instruments as Instrument[]) : [];
  return {
    ucp: { version, capabilities, payment_handlers: handlerRegistry(edge.handlers) },
    ...shown,
    totals: signsTotals(version) ? signedTotals(totals) : totals,
    payment: { instruments: sent.map((instrument) => (instrument.id === selected ? { ...instrument, selected: true } : instrument)) },
  };
}

/** An order (GET, PUT, and the body of its events) in the negotiated version; 2026-04-08 requires its currency. */
export function presentOrder(document: Json, edge: Pick<Edge, 'version'>, currency: string): Json {
  const { version } = edge;
  const { ucp: _stored, currency: _currency, totals, ...rest } = document;
  return {
    ucp: { version, capabilities: capabilityRegistry(version, [ORDER_CAPABILITY]) },
    ...rest,
    ...(signsTotals(version) ? { currency, totals: signedTotals(totals) } : { totals }),
  };
}

/**
 * A failure in the negotiated version. Up to 2026-01-23 every failure is the error structure with its HTTP status.
 * From 2026-04-08: an unsupported version is 422 `version_unsupported`; a business outcome (an unknown item, too
 * little stock) is 200 with `ucp.status` "error" and a typed message, no resource created; any other failure keeps
 * its status with `code` and `content`. A refused version is answered in the shop's declared version.
 */
export function presentError(error: UcpError, version: UcpVersion, baseUrl: string): { status: number; body: Json } {
  if (!signsTotals(version)) return { status: error.status, body: errorBody(error) };
  if (error.options.versionRefusal) {
    return { status: 422, body: { code: 'version_unsupported', content: error.message, continue_url: `${baseUrl}/` } };
  }
  if (error.options.outcome !== undefined) {
    return {
      status: 200,
      body: {
        ucp: { version, status: 'error' },
        messages: [{ type: 'error', code: error.options.outcome, content: error.message, severity: 'unrecoverable' }],
        continue_url: `${baseUrl}/`,
      },
    };
  }
  return { status: error.status, body: { code: error.code.toLowerCase(), content: error.message } };
}
