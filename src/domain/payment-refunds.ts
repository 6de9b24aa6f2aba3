/** An order's payment as a processor refunds it: the reference the processor gave when it took the money. */
export type PaidOrder = { orderId: string; channel: string; paymentReference: string };

/**
 * Gives money back through the processor that took it. Answers false when the order's payment is not its own
 * (another face's processor), and throws when the processor refused: then nothing is recorded.
 */
export type PaymentRefunder<Handle> = (handle: Handle, order: PaidOrder, amount: number) => Promise<boolean>;

/**
 * Commerce refunds, faces pay back: a face that takes payments through a processor (UCP, while it is on) registers
 * its refunder at composition, and orders.refund asks them in turn, inside the refund's transaction and before
 * anything is written, so a refused payback refuses the refund. An order paid without a processor asks nobody.
 */
export type PaymentRefunds<Handle> = {
  register(refunder: PaymentRefunder<Handle>): void;
  /** True when a registered refunder paid the amount back; false when none took the order's payment. */
  refund(handle: Handle, order: PaidOrder, amount: number): Promise<boolean>;
};

export function paymentRefunds<Handle>(): PaymentRefunds<Handle> {
  const refunders: Array<PaymentRefunder<Handle>> = [];
  return {
    register(refunder) {
      refunders.push(refunder);
    },
    async refund(handle, order, amount) {
      for (const refunder of refunders) if (await refunder(handle, order, amount)) return true;
      return false;
    },
  };
}
