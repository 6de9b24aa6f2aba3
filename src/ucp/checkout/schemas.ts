import { z } from 'zod';

/**
 * Request shapes of UCP 2026-01-11 to 2026-04-08 (schemas/shopping, with the fulfillment, discount and
 * buyer_consent extensions), as zod: one reading for all versions, the later ones' members optional beside the
 * earlier ones'. Unknown members are dropped, as the spec's additionalProperties allow; response-only
 * members a platform echoes back (titles, prices, totals, options) are ignored: the catalog decides them.
 */
const Text = z.string().max(1000);
const Id = z.string().min(1).max(200);

export const PostalAddress = z.object({
  extended_address: Text.optional(),
  street_address: Text.optional(),
  address_locality: Text.optional(),
  address_region: Text.optional(),
  address_country: z.string().regex(/^[A-Za-z]{2}$/, 'an ISO 3166-1 alpha-2 country code, e.g. US').transform((code) => code.toUpperCase()).optional(),
  postal_code: Text.optional(),
  first_name: Text.optional(),
  last_name: Text.optional(),
  full_name: Text.optional(),
  phone_number: Text.optional(),
});
export type PostalAddress = z.infer<typeof PostalAddress>;

/** UCP lets a request's destination id be any string: an empty one is no id, a platform that knows none yet sends it. */
const Destination = PostalAddress.extend({ id: z.string().max(200).transform((id) => id || undefined).optional() });

const Group = z.object({
  id: Id.optional(),
  selected_option_id: Id.nullable().optional(),
});

const Method = z.object({
  id: Id.optional(),
  type: z.enum(['shipping', 'pickup']).optional(),
  line_item_ids: z.array(Id).max(100).optional(),
  destinations: z.array(Destination).max(20).optional(),
  selected_destination_id: Id.nullable().optional(),
  groups: z.array(Group).max(20).optional(),
});
export type MethodInput = z.infer<typeof Method>;

const Fulfillment = z.object({ methods: z.array(Method).max(5).optional() });

const LineItem = z.object({
  id: Id.optional(),
  item: z.object({ id: Id }),
  // The only bound before the stock check: a quantity above stock is "Insufficient stock", whatever its size.
  quantity: z.int().min(1),
});
export type LineItemInput = z.infer<typeof LineItem>;

const Consent = z.object({
  analytics: z.boolean().optional(),
  preferences: z.boolean().optional(),
  marketing: z.boolean().optional(),
  sale_of_data: z.boolean().optional(),
});

export const Buyer = z.object({
  first_name: Text.optional(),
  last_name: Text.optional(),
  full_name: Text.optional(),
  email: z.string().max(320).optional(),
  phone_number: Text.optional(),
  consent: Consent.optional(),
});
export type Buyer = z.infer<typeof Buyer>;

/** A payment instrument (card_payment_instrument); its credential is read by the processor and never stored. */
export const Instrument = z.looseObject({
  id: Id,
  handler_id: Id,
  type: z.string().min(1).max(100),
  credential: z.looseObject({ type: z.string().max(100) }).optional(),
  billing_address: PostalAddress.optional(),
});
export type InstrumentInput = z.infer<typeof Instrument>;

const Payment = z.object({
  selected_instrument_id: Id.optional(),
  instruments: z.array(Instrument).max(10).optional(),
});

const Discounts = z.object({ codes: z.array(z.string().min(1).max(100)).max(20).optional() });

/** The buyer's context (2026-01-23 on): hints about where and how they shop; the shop still decides prices and currency. */
const Context = z.object({
  address_country: z.string().max(2).optional(),
  address_region: Text.optional(),
  postal_code: Text.optional(),
  intent: Text.optional(),
  language: z.string().max(35).optional(),
  currency: z.string().max(3).optional(),
  eligibility: z.array(z.string().max(200)).max(20).optional(),
});

/** Risk signals (2026-04-08, `signals`; `risk_signals` before): observed facts keyed by reverse-domain name. */
const Signals = z.record(z.string().max(200), z.unknown());

/**
 * An AP2 checkout mandate (an SD-JWT), sent on completion by platforms that speak the AP2 mandate extension: as UCP's
 * schema writes it (the issuer's JWT and disclosures), or as RFC 9901 does (ending in `~`, or in a key-binding JWT).
 */
const Ap2 = z.looseObject({
  checkout_mandate: z.string().max(64 * 1024)
    .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+(~[A-Za-z0-9_-]+)*(~([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)?)?$/, 'an SD-JWT checkout mandate'),
});

const Currency = z.string().regex(/^[A-Za-z]{3}$/, 'an ISO 4217 currency code').transform((code) => code.toUpperCase());

/** Create: 2026-01-11 requires the currency; from 2026-01-23 on the shop decides it and a sent one must match it. */
export const CreateCheckout = z.object({
  line_items: z.array(LineItem).min(1).max(100),
  currency: Currency.optional(),
  buyer: Buyer.optional(),
  context: Context.optional(),
  signals: Signals.optional(),
  payment: Payment.optional(),
  fulfillment: Fulfillment.optional(),
  discounts: Discounts.optional(),
});
export type CreateCheckout = z.infer<typeof CreateCheckout>;
export const CreateCheckoutWithCurrency = CreateCheckout.extend({ currency: Currency });

/** PUT: every top-level member optional; a sent one replaces the stored one, an absent one is kept. */
export const UpdateCheckout = CreateCheckout.partial().extend({ id: Id.optional() });
export type UpdateCheckout = z.infer<typeof UpdateCheckout>;

const SelectableInstrument = Instrument.extend({ selected: z.boolean().optional() });

/**
 * Complete: 2026-01-11 sends the instrument as `payment_data`; 2026-01-23 on sends `payment.instruments`, the
 * selected one (else the only one) paying. Both read to the instrument that pays and the signals to keep.
 */
export const CompleteCheckout = z.object({
  payment_data: Instrument.optional(),
  payment: z.object({ instruments: z.array(SelectableInstrument).min(1).max(10) }).optional(),
  risk_signals: Signals.optional(),
  signals: Signals.optional(),
  ap2: Ap2.optional(),
}).transform((body, context) => {
  const instruments = body.payment?.instruments ?? [];
  const paying = body.payment_data ?? instruments.find((instrument) => instrument.selected === true) ?? (instruments.length === 1 ? instruments[0] : undefined);
  if (!paying) {
    context.addIssue({ code: 'custom', path: ['payment', 'instruments'], message: 'name the instrument that pays: one instrument, or one with selected: true' });
    return z.NEVER;
  }
  const { selected: _selected, ...payment_data } = paying as z.infer<typeof SelectableInstrument>;
  const signals = { ...body.risk_signals, ...body.signals };
  return {
    payment_data: payment_data as InstrumentInput,
    signals: Object.keys(signals).length > 0 ? signals : undefined,
    ap2Mandate: body.ap2?.checkout_mandate,
  };
});
export type CompleteCheckout = z.output<typeof CompleteCheckout>;

/** A person's name as UCP sends it: full_name, else first and last name. */
export function fullName(person: { full_name?: string; first_name?: string; last_name?: string } | undefined): string | undefined {
  if (!person) return undefined;
  return person.full_name ?? ([person.first_name, person.last_name].filter(Boolean).join(' ') || undefined);
}
