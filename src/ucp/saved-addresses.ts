import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.ts';
import { customerAddresses, customers } from '../db/schema.ts';
import type { UcpCaller } from './caller.ts';
import { actsFor } from './linked-buyer.ts';
import type { StoredDestination, StoredFulfillment } from './checkout-view.ts';
import { fullName } from './schemas.ts';
import type { Buyer, PostalAddress } from './schemas.ts';

/**
 * BUTIK_UCP_SAVED_ADDRESSES: the address an order shipped to is kept when the order is placed, and offered to
 * the same buyer next time, but only through an identity that proved it is that buyer. An e-mail in a request
 * proves nothing (anyone can type it), so the identity is either a linked buyer's token with
 * dev.ucp.shopping.checkout:manage (identity linking: the buyer signed in), or else the platform's API key
 * (BUTIK_UCP_AUTH=key). A linked buyer is offered what their own linked orders shipped to, whichever platform
 * placed them; a key is offered what its own completed orders shipped to for the e-mail in the session. Neither
 * is offered another owner's addresses nor the merchant's imported ones: an account's e-mail is not verified
 * (Butik sends no mail), so it proves no more than an e-mail typed into a request. An open-mode guest is offered
 * nothing. Sessions that are created or updated save nothing, so nobody can plant an address without an order.
 */

/** Who proved the buyer's identity: a linked buyer (identity linking), else a platform's API key. */
export type AddressOwner = { kind: 'key'; id: string } | { kind: 'buyer'; id: string };

export function addressOwner(caller: UcpCaller): AddressOwner | undefined {
  const buyer = actsFor(caller, 'dev.ucp.shopping.checkout:manage');
  if (buyer) return { kind: 'buyer', id: buyer.id };
  return caller.mode === 'key' && caller.keyId !== null ? { kind: 'key', id: caller.keyId } : undefined;
}

const ownerColumn = (owner: AddressOwner) => `${owner.kind}:${owner.id}`;

type Customer = { email: string; name: string };

function customerOf(buyer: Buyer | null | undefined, destination: PostalAddress): Customer | undefined {
  const email = buyer?.email?.trim();
  return email ? { email, name: fullName(buyer ?? undefined) ?? fullName(destination) ?? 'Unknown' } : undefined;
}

async function customerId(db: Queryable, customer: Customer): Promise<string | undefined> {
  await db.insert(customers).values({ id: randomUUID(), name: customer.name, email: customer.email }).onConflictDoNothing();
  const [row] = await db.select({ id: customers.id }).from(customers).where(sql`lower(${customers.email}) = lower(${customer.email})`);
  return row?.id;
}

/**
 * Keeps the address a completed order ships to, for the buyer and the identity that placed it; in the order's
 * transaction, so an order that fails saves nothing. An address it already holds is kept once.
 */
export async function saveShippedAddress(
  db: Queryable, caller: UcpCaller, buyer: Buyer | null | undefined, destination: StoredDestination,
): Promise<void> {
  const owner = addressOwner(caller);
  // A linked buyer's address is kept under the account's e-mail when the session names none.
  const account = owner?.kind === 'buyer' && !buyer?.email ? caller.buyer?.email : undefined;
  const customer = customerOf(account ? { ...buyer, email: account } : buyer, destination);
  const { street_address: street, address_locality: city, postal_code: postalCode, address_country: country } = destination;
  if (!owner || !customer || !street || !city || !postalCode || !country) return;
  const id = await customerId(db, customer);
  if (!id) return;
  await db.insert(customerAddresses).values({
    id: randomUUID(), customerId: id, owner: ownerColumn(owner),
    streetAddress: street, city, region: destination.address_region ?? null, postalCode, countryCode: country,
  }).onConflictDoNothing();
}

/** A key's addresses for the buyer the session names; a linked buyer's own addresses, whatever e-mail they went with. */
async function savedFor(db: Queryable, owner: AddressOwner, email: string | undefined): Promise<StoredDestination[]> {
  const forEmail = owner.kind === 'key' ? sql`lower(${customers.email}) = lower(${email ?? ''})` : undefined;
  const rows = await db.select({ address: customerAddresses }).from(customerAddresses)
    .innerJoin(customers, eq(customers.id, customerAddresses.customerId))
    .where(and(eq(customerAddresses.owner, ownerColumn(owner)), forEmail))
    .orderBy(asc(customerAddresses.createdAt), asc(customerAddresses.id));
  return rows.map(({ address }) => ({
    id: address.id,
    street_address: address.streetAddress,
    address_locality: address.city,
    ...(address.region ? { address_region: address.region } : {}),
    postal_code: address.postalCode,
    address_country: address.countryCode,
  }));
}

/** Shipping methods without destinations get the addresses this caller saved for the buyer, when it may see any. */
export async function offerSavedAddresses(
  db: Queryable, caller: UcpCaller, buyer: Buyer | null | undefined, fulfillment: StoredFulfillment,
): Promise<StoredFulfillment> {
  const owner = addressOwner(caller);
  const email = buyer?.email?.trim();
  const wanted = fulfillment.methods.some((method) => method.type === 'shipping' && method.destinations.length === 0);
  if (!owner || (owner.kind === 'key' && !email) || !wanted) return fulfillment;
  const saved = await savedFor(db, owner, email);
  if (saved.length === 0) return fulfillment;
  return {
    methods: fulfillment.methods.map((method) => (method.type === 'shipping' && method.destinations.length === 0 ? { ...method, destinations: saved } : method)),
  };
}
