import type { OrderStatus } from './order-status.ts';

/** The carrier details an order has when it moves; a shipped order's tracking goes out with its event. */
export type OrderShipment = { carrier: string | null; trackingNumber: string | null; trackingUrl: string | null };

/**
 * An order change as commerce announces it, inside the transaction that makes it. `channel` is the order's
 * (api, mcp, cli, ucp), so a subscriber can tell the orders it cares about without reading them.
 */
export type OrderEvent =
  | { type: 'order_placed'; orderId: string; channel: string; at: Date }
  | {
    type: 'order_status_changed';
    orderId: string;
    channel: string;
    from: OrderStatus;
    to: OrderStatus;
    /** What a cancellation or refund gives back: the order total, less what orders.refund gave back before a move to refunded. */
    totalAmount: number;
    shipment: OrderShipment;
    at: Date;
  }
  /**
   * orders.refund gave `amount` back, moving the order `from` → `to` (partial_refund or refunded). `paidBack`: the
   * processor already returned the money inside the refund, so no subscriber may queue another payback.
   */
  | { type: 'order_refunded'; orderId: string; channel: string; from: OrderStatus; to: OrderStatus; amount: number; paidBack: boolean; at: Date };

export type OrderEventHandler<Handle> = (handle: Handle, event: OrderEvent) => Promise<void>;

/**
 * Commerce announces, faces listen: a subscriber (the UCP module, while UCP is on) is registered at composition,
 * and publish runs every subscriber in turn with the transaction handle, so what they write commits or rolls
 * back with the change itself. Without subscribers publishing costs nothing.
 */
export type OrderEvents<Handle> = {
  subscribe(handler: OrderEventHandler<Handle>): void;
  publish(handle: Handle, event: OrderEvent): Promise<void>;
};

export function orderEvents<Handle>(): OrderEvents<Handle> {
  const handlers: Array<OrderEventHandler<Handle>> = [];
  return {
    subscribe(handler) {
      handlers.push(handler);
    },
    async publish(handle, event) {
      for (const handler of handlers) await handler(handle, event);
    },
  };
}
