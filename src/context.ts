import type { Actor } from './access/actor.ts';
import type { Db, Tx } from './db/client.ts';
import type { OrderEvents } from './domain/order-events.ts';
import type { PaymentRefunds } from './domain/payment-refunds.ts';
import type { Log } from './log.ts';

/** How a call arrived: the JSON API, MCP, the command line, or a form of the /admin console. */
export type Channel = 'rest' | 'mcp' | 'cli' | 'admin';

/** The order-event hub of one app, built at composition; commerce publishes with the transaction it writes in. */
export type OrderEventHub = OrderEvents<Db | Tx>;

/** Where faces that take payments register how they give money back; orders.refund asks it in its transaction. */
export type PaymentRefundHub = PaymentRefunds<Db | Tx>;

export type AuditRecord = {
  targetType: string;
  targetId: string;
  before: unknown;
  after: unknown;
  /** Set by audit.revert: the entry this one undoes. */
  revertOf?: string;
};

/** Everything a handler may touch. Handlers never see HTTP or MCP (docs/architecture.md#the-idea-in-one-paragraph). */
export type ToolContext = {
  /** Inside a transaction for writes, the plain database for read-only tools. */
  db: Db | Tx;
  actor: Actor;
  channel: Channel;
  clock: () => Date;
  log: Log;
  /** Public base address, for URLs handed back to clients (BASE_URL, docs/behaviour.md#running-it). */
  baseUrl: string;
  /** Where commerce announces order changes, in this call's transaction. */
  orderEvents: OrderEventHub;
  /** The processors a refund pays back through (docs/architecture.md#payment-refunds). */
  paymentRefunds: PaymentRefundHub;
  /**
   * The version tokens the caller's write is conditional on (REST If-Match, MCP _meta["butik/ifMatch"]);
   * undefined when the write is unconditional. Update tools check it with requireVersion.
   */
  ifMatch?: readonly string[];
  /** Appends an audit entry in the same transaction as the write. */
  audit(record: AuditRecord): Promise<string>;
};
