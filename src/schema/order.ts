import { z } from 'zod';
import { ORDER_STATUSES } from '../domain/order-status.ts';
import { Email, Id, Int, JsonObject, NonNegativeInt, Oere, Timestamp, money } from './common.ts';
import { CountryCode } from './shipping.ts';

export const OrderStatus = z.enum(ORDER_STATUSES).meta({ description: 'An order status; orders.update_status moves an order only along the legal transitions.' });
export type OrderStatus = z.infer<typeof OrderStatus>;

/** Card orders start as pending_payment, invoice orders as pending. */
export const PaymentMethod = z.enum(['card', 'invoice']);
export type PaymentMethod = z.infer<typeof PaymentMethod>;

const Amount = Oere;
const OptionalText = z.string().nullable();
const OptionalTime = Timestamp.nullable();

/** The order summary of docs/behaviour.md#orders, exact: orders.list returns these fields and no others. */
export const OrderSummary = z.strictObject({
  id: Id,
  email: z.string(),
  shippingName: z.string(),
  status: OrderStatus,
  subtotalDkk: Amount,
  discountDkk: Amount,
  shippingDkk: Amount,
  totalDkk: Amount,
  discountCode: OptionalText,
  itemCount: NonNegativeInt.meta({ description: 'Sum of the item quantities.' }),
  items: z.array(z.strictObject({ productName: z.string(), quantity: Int, unitPriceDkk: Amount })),
  createdAt: Timestamp,
});

/** An order item (docs/behaviour.md#orders). */
export const OrderItemRecord = z.strictObject({
  id: Id,
  orderId: Id,
  productId: Id,
  productName: z.string().meta({ description: 'Product name when the order was placed.' }),
  unitPriceDkk: money(Amount, 'the unit price when the order was placed, VAT included.'),
  quantity: Int,
  variantId: OptionalText,
  variantSku: OptionalText,
  variantAttributes: JsonObject.nullable()
    .meta({ description: 'Snapshot of the selected variant attributes (name → value, kept as they were), or null.' }),
});

/** The full order record (docs/behaviour.md#orders): every field always present, null where unknown. */
export const OrderRecord = z.strictObject({
  id: Id,
  userId: OptionalText,
  email: z.string(),
  status: OrderStatus,
  shippingName: z.string(),
  shippingAddress: z.string(),
  shippingZip: z.string(),
  shippingCity: z.string(),
  shippingRegion: OptionalText,
  shippingCountry: OptionalText.meta({ description: 'ISO 3166-1 alpha-2 where the order gave one (it priced the shipping); null where it did not.' }),
  billingName: OptionalText,
  billingAddress: OptionalText,
  billingZip: OptionalText,
  billingCity: OptionalText,
  billingCountry: OptionalText,
  phoneNumber: OptionalText,
  subtotalDkk: Amount,
  shippingDkk: Amount,
  discountDkk: Amount,
  totalDkk: Amount,
  vatOere: money(Int.nullable(), 'the VAT contained in totalDkk, or null where unknown.', 29980),
  invoiceProvider: OptionalText,
  invoiceId: OptionalText,
  invoicePdfUrl: OptionalText,
  discountCode: OptionalText,
  isAiGenerated: z.boolean(),
  aiAgentSource: OptionalText,
  carrier: OptionalText,
  trackingNumber: OptionalText,
  trackingUrl: OptionalText,
  estDeliveryFrom: OptionalTime,
  estDeliveryTo: OptionalTime,
  createdAt: Timestamp,
  processorPaymentIntentId: OptionalText,
  paymentMethod: OptionalText,
  paidAt: OptionalTime,
  currency: z.string(),
  fxRate: z.number(),
  channel: z.string().meta({ description: 'Where the order came from: api (REST), mcp, or another sales channel.' }),
  acpSessionId: OptionalText,
  confirmationEmailSentAt: OptionalTime,
  refundedAt: OptionalTime,
  disputedAt: OptionalTime,
  items: z.array(OrderItemRecord),
});

/** One refund of an order as orders.get shows it (docs/behaviour.md#refunds). */
/** The lines a refund put back in stock; empty when none. */
export const RestockedLines = z.array(z.strictObject({ productId: Id, quantity: z.int().min(1) }));

export const OrderRefund = z.strictObject({
  amount: Oere,
  at: Timestamp,
  by: z.string().meta({ description: 'Who refunded, as the activity log names them.' }),
  reason: z.string().nullable(),
  restocked: RestockedLines,
});

/** orders.get: the record with its refunds, oldest first. */
export const OrderWithRefunds = OrderRecord.extend({ refunds: z.array(OrderRefund) });

/** Shipping and billing addresses and contact details taken by cart.checkout (docs/behaviour.md#checkout). */
const Line = z.string().trim().min(1).max(200);
const Address = {
  name: Line.meta({ description: 'Full name of the recipient.', examples: ['Karen Blixen'] }),
  address: Line.meta({ description: 'Street and number.', examples: ['Rungstedvej 111'] }),
  zip: Line.max(20).meta({ description: 'Postal code.', examples: ['2960'] }),
  city: Line.meta({ description: 'City or town.', examples: ['Rungsted Kyst'] }),
};
export const CheckoutInput = z.strictObject({
  cartId: Id,
  email: Email.meta({ description: 'Customer e-mail for the order.' }),
  shipping: z.strictObject({
    ...Address,
    country: CountryCode.optional().meta({
      description: 'Destination country, ISO 3166-1 alpha-2; prices shipping by its rates. Without it, the shop\'s default shipping rule.',
      examples: ['DK'],
    }),
  }).meta({ description: 'Where the order is delivered.' }),
  billing: z.strictObject({ ...Address, country: Line.meta({ description: 'Country of the billing address.', examples: ['Danmark'] }) })
    .optional()
    .meta({ description: 'Billing address, when it differs from shipping.' }),
  phoneNumber: z.string().trim().min(1).max(40).optional().meta({ description: 'Phone number for the carrier.', examples: ['+45 12 34 56 78'] }),
  paymentMethod: PaymentMethod.default('card')
    .meta({ description: 'card (default): the order starts as pending_payment; invoice: it starts as pending.' }),
});

export const CheckoutResult = z.strictObject({
  orderId: Id,
  status: OrderStatus,
  totalDkk: Amount,
  vatOere: money(Int, 'the VAT contained in totalDkk (25 %): round(totalDkk / 5).', 29980),
});

/** How a shipped order travels, given with orders.update_status to (or again at) shipped. */
export const Shipment = z.strictObject({
  carrier: z.string().trim().min(1).max(100).optional().meta({ description: 'The carrier, e.g. PostNord, GLS, DAO.', examples: ['PostNord'] }),
  trackingNumber: z.string().trim().min(1).max(100).optional().meta({ description: "The carrier's tracking number." }),
  trackingUrl: z.url({ protocol: /^https?$/ }).max(2000).optional()
    .meta({ description: 'Where the customer follows the parcel (http or https).' }),
  estDeliveryFrom: Timestamp.optional().meta({ description: 'Earliest expected delivery.' }),
  estDeliveryTo: Timestamp.optional().meta({ description: 'Latest expected delivery; not before estDeliveryFrom.' }),
});
export type Shipment = z.infer<typeof Shipment>;
export const SHIPMENT_FIELDS = Object.keys(Shipment.shape) as Array<keyof Shipment>;
