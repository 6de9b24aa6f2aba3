import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { customerAddresses, customers } from '../../db/schema.ts';
import type { UcpCaller } from '../identity/caller.ts';
import { actsFor } from '../identity/linked-buyer.ts';
import type { StoredDestination, StoredFulfillment, StoredMethod } from './checkout-view.ts';
import { fullName } from './schemas.ts';
import type { Buyer, PostalAddress } from './schemas.ts';

/**
 * BUTIK_UCP_SAVED_ADDRESSES: the address an order shipped to is kept when the order is placed, and offered to
 * the same buyer next time, but only through an identity that proved it is that buyer. An e-mail in a request
 * proves nothing (anyone can type it), so the identity is a linked buyer's token with
 * dev.ucp.shopping.checkout:manage (identity linking: the buyer signed in), else the platform's API key
 * (BUTIK_UCP_AUTH=key), else a platform the owner trusts to have verified its buyers' e-mails, whose request proved
 * it comes from it (BUTIK_UCP_TRUSTED_PLATFORMS, trusted-platforms.ts). A linked buyer is offered what their own
 * linked orders shipped to, whichever platform placed them; a key or a trusted platform what its own completed
 * orders shipped to for the e-mail in the session. The merchant's imported addresses are offered only through a
 * trusted platform, for the e-mail it vouches for: an account's e-mail is not verified (Butik sends no mail), so
 * without that it proves no more than an e-mail typed into a request. An open-mode guest is offered nothing.
 * Sessions that are created or updated save nothing, so nobody can plant an address without an order.
 */

/** Who proved the buyer's identity: a linked buyer (identity linking), else a platform's API key, else a trusted platform. */
export type AddressOwner = { kind: 'key'; id: string } | { kind: 'buyer'; id: string } | { kind: 'platform'; id: string };

export function addressOwner(caller: UcpCaller): AddressOwner | undefined {
  const buyer = actsFor(caller, 'dev.ucp.shopping.checkout:manage');
  if (buyer) return { kind: 'buyer', id: buyer.id };
  if (caller.mode === 'key' && caller.keyId !== null) return { kind: 'key', id: caller.keyId };
  return caller.trustedPlatform === undefined ? undefined : { kind: 'platform', id: caller.trustedPlatform };
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

/** The parts that make two destinations the same address, compared without case or surrounding space. */
function sameAddressKey(address: PostalAddress): string {
  const { street_address: street, address_locality: city, address_region: region, postal_code: postalCode, address_country: country } = address;
  return [street, city, region, postalCode, country].map((part) => (part ?? '').trim().toLowerCase()).join('\n');
}

/**
 * The addresses offered to `owner` for the buyer the session names: a linked buyer's own, whatever e-mail they
 * went with; a key's or a trusted platform's for that e-mail; and through a trusted platform also the merchant's
 * imported ones for it. The same address held twice (imported, then shipped to) is offered once, under its first id.
 */
async function savedFor(db: Queryable, owner: AddressOwner | undefined, email: string | undefined, trusted: boolean): Promise<StoredDestination[]> {
  const forEmail = email === undefined ? undefined : sql`lower(${customers.email}) = lower(${email})`;
  const own = owner?.kind === 'buyer' ? eq(customerAddresses.owner, ownerColumn(owner))
    : owner && forEmail ? and(eq(customerAddresses.owner, ownerColumn(owner)), forEmail) : undefined;
  const imported = trusted && forEmail ? and(isNull(customerAddresses.owner), forEmail) : undefined;
  if (!own && !imported) return [];
  const rows = await db.select({ address: customerAddresses }).from(customerAddresses)
    .innerJoin(customers, eq(customers.id, customerAddresses.customerId))
    .where(or(own, imported))
    .orderBy(asc(customerAddresses.createdAt), asc(customerAddresses.id));
  const seen = new Set<string>();
  return rows.flatMap(({ address }) => {
    const destination: StoredDestination = {
      id: address.id,
      street_address: address.streetAddress,
      address_locality: address.city,
      ...(address.region ? { address_region: address.region } : {}),
      postal_code: address.postalCode,
      address_country: address.countryCode,
    };
    const key = sameAddressKey(destination);
    if (seen.has(key)) return [];
    seen.add(key);
    return [destination];
  });
}

/** A sent destination that is an offered address takes that address's id (and stays selected if it was). */
function namedAsOffered(method: StoredMethod, offered: readonly StoredDestination[]): StoredMethod {
  const byAddress = new Map(offered.map((destination) => [sameAddressKey(destination), destination.id]));
  let selected = method.selected_destination_id;
  const destinations = method.destinations.map((destination) => {
    const id = byAddress.get(sameAddressKey(destination));
    if (id === undefined || id === destination.id) return destination;
    if (selected === destination.id) selected = id;
    return { ...destination, id };
  });
  return { ...method, destinations, selected_destination_id: selected };
}

/**
 * Shipping methods without destinations get the addresses this caller may be offered for the buyer; a sent
 * destination that is one of them is named by its id, so the platform sees the address it already knows.
 */
export async function offerSavedAddresses(
  db: Queryable, caller: UcpCaller, buyer: Buyer | null | undefined, fulfillment: StoredFulfillment,
): Promise<StoredFulfillment> {
  const owner = addressOwner(caller);
  const email = buyer?.email?.trim() || undefined;
  const shipping = fulfillment.methods.some((method) => method.type === 'shipping');
  if (!shipping || (!owner && caller.trustedPlatform === undefined)) return fulfillment;
  const offered = await savedFor(db, owner, email, caller.trustedPlatform !== undefined);
  if (offered.length === 0) return fulfillment;
  return {
    methods: fulfillment.methods.map((method) => {
      if (method.type !== 'shipping') return method;
      return method.destinations.length === 0 ? { ...method, destinations: offered } : namedAsOffered(method, offered);
    }),
  };
}
