import { z } from 'zod';

/**
 * The one place the buyer's page reads UCP's checkout answer: the members it shows, read loosely so that members
 * it does not use (and those a later protocol version adds) pass by. Everything else of the page works on
 * CheckoutModel, so a change of the wire shape is mended here.
 */
const Amounts = z.array(z.looseObject({ type: z.string(), amount: z.number() })).catch([]);
const Address = z.looseObject({
  id: z.string().optional(),
  full_name: z.string().optional(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  street_address: z.string().optional(),
  extended_address: z.string().optional(),
  postal_code: z.string().optional(),
  address_locality: z.string().optional(),
  address_region: z.string().optional(),
  address_country: z.string().optional(),
  phone_number: z.string().optional(),
});
const Answer = z.looseObject({
  id: z.string(),
  status: z.string(),
  currency: z.string(),
  line_items: z.array(z.looseObject({
    item: z.looseObject({ title: z.string(), price: z.number() }),
    quantity: z.number(),
    totals: Amounts,
  })).catch([]),
  buyer: z.looseObject({
    email: z.string().optional(),
    full_name: z.string().optional(),
    first_name: z.string().optional(),
    last_name: z.string().optional(),
    phone_number: z.string().optional(),
  }).optional(),
  totals: Amounts,
  messages: z.array(z.looseObject({ type: z.string(), code: z.string(), path: z.string().optional(), content: z.string() })).catch([]),
  payment: z.looseObject({ handlers: z.array(z.looseObject({ id: z.string(), name: z.string() })).catch([]) }).optional(),
  fulfillment: z.looseObject({
    methods: z.array(z.looseObject({
      id: z.string(),
      type: z.string(),
      destinations: z.array(Address).optional(),
      selected_destination_id: z.string().optional(),
      groups: z.array(z.looseObject({
        id: z.string(),
        selected_option_id: z.string().nullable().optional(),
        options: z.array(z.looseObject({ id: z.string(), title: z.string(), totals: Amounts })).optional(),
      })).optional(),
    })).catch([]),
  }).optional(),
  discounts: z.looseObject({ codes: z.array(z.string()).catch([]) }).optional(),
  order: z.looseObject({ id: z.string() }).optional(),
});

export type Address = z.infer<typeof Address>;
export type Buyer = NonNullable<z.infer<typeof Answer>['buyer']>;
export type ShippingOption = { id: string; title: string; amount: number };
export type Message = { type: string; code: string; path: string; content: string };

export type CheckoutModel = {
  id: string;
  /** incomplete, ready_for_complete, completed, canceled (or another a later version names). */
  status: string;
  currency: string;
  lines: Array<{ title: string; unitPrice: number; quantity: number; total: number }>;
  subtotal: number;
  discount: number;
  /** The shipping price once an option is chosen. */
  shipping: number | undefined;
  total: number;
  buyer: Buyer;
  /** The shipping method's selected destination, with the method and group the page's form writes back to. */
  destination: Address | undefined;
  methodId: string | undefined;
  groupId: string | undefined;
  options: ShippingOption[];
  selectedOptionId: string | undefined;
  codes: string[];
  /** The handlers the shop offers, as UCP names them (their id and name). */
  handlers: Array<{ id: string; name: string }>;
  messages: Message[];
  /** Set once the session is completed. */
  orderId: string | undefined;
};

const amountOf = (totals: ReadonlyArray<{ type: string; amount: number }>, type: string) => totals.find((total) => total.type === type)?.amount;

export function readCheckout(json: unknown): CheckoutModel {
  const answer = Answer.parse(json);
  const method = answer.fulfillment?.methods.find((candidate) => candidate.type === 'shipping');
  const group = method?.groups?.[0];
  return {
    id: answer.id,
    status: answer.status,
    currency: answer.currency,
    lines: answer.line_items.map((line) => ({
      title: line.item.title, unitPrice: line.item.price, quantity: line.quantity, total: amountOf(line.totals, 'total') ?? line.item.price * line.quantity,
    })),
    subtotal: amountOf(answer.totals, 'subtotal') ?? 0,
    discount: amountOf(answer.totals, 'discount') ?? 0,
    shipping: amountOf(answer.totals, 'fulfillment'),
    total: amountOf(answer.totals, 'total') ?? 0,
    buyer: answer.buyer ?? {},
    destination: method?.destinations?.find((destination) => destination.id === method.selected_destination_id),
    methodId: method?.id,
    groupId: group?.id,
    options: (group?.options ?? []).map((option) => ({ id: option.id, title: option.title, amount: amountOf(option.totals, 'total') ?? 0 })),
    selectedOptionId: group?.selected_option_id ?? undefined,
    codes: answer.discounts?.codes ?? [],
    handlers: answer.payment?.handlers ?? [],
    messages: answer.messages.map((message) => ({ ...message, path: message.path ?? '' })),
    orderId: answer.order?.id,
  };
}

/** UCP's error answer: its code and detail. */
const ErrorAnswer = z.looseObject({ code: z.string(), detail: z.string() });
export type Refusal = z.infer<typeof ErrorAnswer>;

export function readRefusal(json: unknown): Refusal {
  const parsed = ErrorAnswer.safeParse(json);
  return parsed.success ? parsed.data : { code: 'INTERNAL_ERROR', detail: 'The shop could not answer.' };
}
