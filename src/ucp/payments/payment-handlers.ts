import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { PROCESSOR_NAMES } from './processors.ts';

/**
 * A payment handler as UCP publishes it (payment_handler_resp), plus `processor`: the name of the processor
 * that authorizes its instruments. `processor` is Butik's own and never leaves the process.
 */
export const PaymentHandlerDeclaration = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  version: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a UCP version, YYYY-MM-DD'),
  spec: z.url(),
  config_schema: z.url(),
  instrument_schemas: z.array(z.url()),
  config: z.record(z.string(), z.unknown()),
  processor: z.enum(PROCESSOR_NAMES),
});
export type PaymentHandlerDeclaration = z.infer<typeof PaymentHandlerDeclaration>;

/** What test mode advertises when no file is given: the samples' mock handler. */
export const MOCK_PAYMENT_HANDLER: PaymentHandlerDeclaration = {
  id: 'mock_payment_handler',
  name: 'dev.ucp.mock_payment',
  version: '2026-01-11',
  spec: 'https://ucp.dev/specs/mock',
  config_schema: 'https://ucp.dev/schemas/mock.json',
  instrument_schemas: ['https://ucp.dev/schemas/shopping/types/card_payment_instrument.json'],
  config: { supported_tokens: ['success_token', 'fail_token'] },
  processor: 'mock',
};

/**
 * The handlers of BUTIK_UCP_PAYMENT_HANDLERS (a JSON file holding an array), checked at start-up: ids unique,
 * and the mock processor only in test mode, so a live shop can never take an order nobody paid for.
 */
export function loadPaymentHandlers(mode: 'off' | 'test' | 'live', file: string | undefined): PaymentHandlerDeclaration[] {
  if (file === undefined) {
    if (mode === 'live') throw new Error('live mode needs a file declaring the payment handlers and their processors');
    return mode === 'test' ? [MOCK_PAYMENT_HANDLER] : [];
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON`);
  }
  const parsed = z.array(PaymentHandlerDeclaration).min(1).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: ${issue?.path.join('.') || 'the array'}: ${issue?.message ?? 'invalid'}`);
  }
  const ids = parsed.data.map((handler) => handler.id);
  const repeated = ids.find((handlerId, index) => ids.indexOf(handlerId) !== index);
  if (repeated) throw new Error(`${file}: handler id "${repeated}" is declared twice`);
  const mock = parsed.data.find((handler) => handler.processor === 'mock');
  if (mock && mode !== 'test') throw new Error(`${file}: handler "${mock.id}" uses the mock processor, which only runs in test mode`);
  return parsed.data;
}

/** The handlers as UCP publishes them: without the processor behind each. */
export function publishedHandlers(handlers: readonly PaymentHandlerDeclaration[]) {
  return handlers.map(({ processor: _processor, ...published }) => published);
}
