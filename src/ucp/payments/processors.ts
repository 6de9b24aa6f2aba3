import { randomUUID } from 'node:crypto';

/** The processors a payment handler can name. PSP adapters join this list as they are written. */
export const PROCESSOR_NAMES = ['mock'] as const;
export type ProcessorName = (typeof PROCESSOR_NAMES)[number];

/** A payment instrument as the platform sent it in payment_data; only the processor reads its credential. */
export type Instrument = {
  id: string;
  handler_id: string;
  type: string;
  credential?: Record<string, unknown>;
  binding?: { checkout_id?: unknown };
  [member: string]: unknown;
};

export type AuthorizeRequest = {
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  instrument: Instrument;
  checkoutId: string;
  /** Stable per completion attempt, so a processor can recognise a retried authorization. */
  idempotencyKey: string;
};

export type Authorization =
  | { outcome: 'authorized'; reference: string }
  | { outcome: 'declined'; message: string }
  /** The buyer must act at the PSP (3-D Secure, say); the checkout escalates with this URL. */
  | { outcome: 'requires_action'; continueUrl: string };

export type PaymentProcessor = {
  authorize(request: AuthorizeRequest): Promise<Authorization>;
  capture(reference: string, amount: number): Promise<void>;
  void(reference: string): Promise<void>;
  refund(reference: string, amount: number): Promise<void>;
};

/** The Luhn check a card number must pass before the mock processor takes it as a valid card. */
export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i += 1) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

const DECLINED = 'Payment Failed: Insufficient Funds';

/**
 * Test mode's processor, after the samples' mock handler: the token `success_token` or a Luhn-valid card
 * number is authorized, anything else declined. A credential bound to another checkout is declined too.
 */
export const mockProcessor: PaymentProcessor = {
  async authorize({ instrument, checkoutId }) {
    const bound = instrument.binding?.checkout_id ?? (instrument.credential?.binding as { checkout_id?: unknown } | undefined)?.checkout_id;
    if (bound !== undefined && bound !== checkoutId) {
      return { outcome: 'declined', message: 'Payment Failed: the credential is bound to another checkout' };
    }
    const credential = instrument.credential ?? {};
    const accepted = credential.token === 'success_token'
      || (credential.type === 'card' && typeof credential.number === 'string' && luhnValid(credential.number));
    return accepted ? { outcome: 'authorized', reference: `mock_${randomUUID()}` } : { outcome: 'declined', message: DECLINED };
  },
  async capture() {},
  async void() {},
  async refund() {},
};

export function isProcessorName(name: string | null): name is ProcessorName {
  return (PROCESSOR_NAMES as readonly (string | null)[]).includes(name);
}

export function processorNamed(name: ProcessorName): PaymentProcessor {
  switch (name) {
    case 'mock':
      return mockProcessor;
  }
}
