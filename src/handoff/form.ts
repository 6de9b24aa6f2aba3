import { z } from 'zod';
import type { CheckoutModel } from './checkout-model.ts';
import type { Explained } from './explain.ts';

/** The fields of the buyer's form, and the places a problem is shown: beside a field, the lines, or the form. */
export type FieldName = 'email' | 'name' | 'phone' | 'street' | 'zip' | 'city' | 'country' | 'option' | 'codes' | 'card';
export type Place = FieldName | 'lines' | 'form';
export type Problems = Partial<Record<Place, Explained>>;

/** What the person typed (or what the session already holds); the card number is never shown again. */
export type CheckoutForm = Record<Exclude<FieldName, 'card'>, string>;

/** UCP's bound on a text member; an e-mail address has its own. */
const MAX_TEXT = 1000;
const MAX_EMAIL = 254;

const Posted = z.object({
  email: z.string().optional(), name: z.string().optional(), phone: z.string().optional(), street: z.string().optional(),
  zip: z.string().optional(), city: z.string().optional(), country: z.string().optional(), option: z.string().optional(),
  codes: z.string().optional(), card: z.string().optional(), action: z.string().optional(),
});

export type Submission = { form: CheckoutForm; card: string; pay: boolean };

/** The posted form, each field trimmed; anything that is not a single string counts as empty. */
export function readSubmission(body: unknown): Submission {
  const parsed = Posted.safeParse(body);
  const posted = parsed.success ? parsed.data : {};
  const field = (value: string | undefined) => (value ?? '').trim();
  return {
    form: {
      email: field(posted.email), name: field(posted.name), phone: field(posted.phone), street: field(posted.street), zip: field(posted.zip),
      city: field(posted.city), country: field(posted.country).toUpperCase(), option: field(posted.option), codes: field(posted.codes),
    },
    card: field(posted.card).replace(/[\s-]/g, ''),
    pay: posted.action === 'pay',
  };
}

/** The form as the session fills it in: its buyer, destination, option and codes; Denmark until a country is given. */
export function formOf(model: CheckoutModel): CheckoutForm {
  const { buyer, destination } = model;
  const name = (person: { full_name?: string; first_name?: string; last_name?: string } | undefined) =>
    person?.full_name ?? [person?.first_name, person?.last_name].filter(Boolean).join(' ');
  return {
    email: buyer.email ?? '',
    name: name(buyer) || name(destination),
    phone: buyer.phone_number ?? destination?.phone_number ?? '',
    street: [destination?.street_address, destination?.extended_address].filter(Boolean).join(', '),
    zip: destination?.postal_code ?? '',
    city: destination?.address_locality ?? '',
    country: destination?.address_country ?? 'DK',
    option: model.selectedOptionId ?? '',
    codes: model.codes.join(' '),
  };
}

const required: Explained = { detail: 'Feltet skal udfyldes.', resolution: 'Udfyld feltet og prøv igen.' };
const tooLong: Explained = { detail: 'Teksten er for lang.', resolution: `Skriv højst ${MAX_TEXT} tegn.` };

/**
 * What is wrong with the form before anything is sent: a malformed e-mail or country code at any time, and to
 * pay, every field an order needs (e-mail, name, address, country, card).
 */
export function checkForm(submission: Submission): Problems {
  const { form, card, pay } = submission;
  const problems: Problems = {};
  for (const [field, value] of Object.entries(form) as Array<[keyof CheckoutForm, string]>) {
    if (value.length > MAX_TEXT) problems[field] = tooLong;
  }
  if (form.email !== '' && (form.email.length > MAX_EMAIL || !z.email().safeParse(form.email).success)) {
    problems.email = { detail: 'E-mailadressen ser forkert ud.', resolution: 'Skriv en adresse som navn@eksempel.dk.' };
  }
  if (form.country !== '' && !/^[A-Z]{2}$/.test(form.country)) {
    problems.country = { detail: 'Landekoden skal være to bogstaver.', resolution: 'Skriv fx DK for Danmark, SE for Sverige eller DE for Tyskland.' };
  }
  if (pay) {
    for (const field of ['email', 'name', 'street', 'zip', 'city', 'country'] as const) {
      if (form[field] === '') problems[field] ??= required;
    }
    if (card === '') problems.card = { detail: 'Kortnummeret mangler.', resolution: 'Skriv kortnummeret (12-19 cifre) og tryk Betal.' };
  }
  return problems;
}

const DESTINATION_ID = 'dest_buyer';

/**
 * The UCP update the form makes: the buyer (what the platform sent beside the form's fields is kept), the one
 * shipping destination, the chosen option, and the discount codes.
 */
export function updateBody(form: CheckoutForm, model: CheckoutModel): Record<string, unknown> {
  const { full_name: _full, first_name: _first, last_name: _last, email: _email, phone_number: _phone, ...kept } = model.buyer;
  const buyer = {
    ...kept,
    ...(form.email ? { email: form.email } : {}),
    ...(form.name ? { full_name: form.name } : {}),
    ...(form.phone ? { phone_number: form.phone } : {}),
  };
  const addressed = [form.street, form.zip, form.city, form.country].some((value) => value !== '');
  const destinationId = model.destination?.id ?? DESTINATION_ID;
  const method = {
    ...(model.methodId ? { id: model.methodId } : {}),
    type: 'shipping',
    destinations: [{
      id: destinationId,
      ...(form.name ? { full_name: form.name } : {}),
      ...(form.street ? { street_address: form.street } : {}),
      ...(form.zip ? { postal_code: form.zip } : {}),
      ...(form.city ? { address_locality: form.city } : {}),
      ...(form.country ? { address_country: form.country } : {}),
      ...(form.phone ? { phone_number: form.phone } : {}),
    }],
    selected_destination_id: destinationId,
    ...(form.option ? { groups: [{ ...(model.groupId ? { id: model.groupId } : {}), selected_option_id: form.option }] } : {}),
  };
  return {
    buyer,
    ...(addressed ? { fulfillment: { methods: [method] } } : {}),
    discounts: { codes: [...new Set(form.codes.split(/[\s,]+/).filter(Boolean))] },
  };
}

/**
 * The payment the form completes with. The mock handler of test mode reads a card number, or one of its test
 * tokens (`success_token`) typed in the same field; it never leaves the request.
 */
export function completeBody(handlerId: string, card: string): Record<string, unknown> {
  const credential = /^\d+$/.test(card) ? { type: 'card', number: card } : { type: 'token', token: card };
  return { payment_data: { id: 'instr_buyer_card', handler_id: handlerId, type: 'card', credential } };
}
