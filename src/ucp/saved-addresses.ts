import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.ts';
import { customerAddresses, customers } from '../db/schema.ts';
import type { StoredDestination, StoredFulfillment } from './checkout-view.ts';
import { fullName } from './schemas.ts';
import type { Buyer, MethodInput } from './schemas.ts';

/**
 * BUTIK_UCP_SAVED_ADDRESSES (after the samples): a known buyer's addresses are offered, and the addresses a buyer
 * ships to are kept for next time, one row per distinct address.
 */
async function customerFor(db: Queryable, buyer: Buyer): Promise<string | undefined> {
  const email = buyer.email?.trim();
  if (!email) return undefined;
  const name = fullName(buyer) ?? 'Unknown';
  await db.insert(customers).values({ id: randomUUID(), name, email }).onConflictDoNothing();
  const [row] = await db.select({ id: customers.id }).from(customers).where(sql`lower(${customers.email}) = lower(${email})`);
  return row?.id;
}

/** Saves one destination (when it is a whole address) and answers the id it is saved under. */
async function save(db: Queryable, customerId: string, destination: NonNullable<MethodInput['destinations']>[number]): Promise<string | undefined> {
  const { street_address: street, address_locality: city, postal_code: postalCode, address_country: country } = destination;
  if (!street || !city || !postalCode || !country) return undefined;
  const region = destination.address_region ?? null;
  const [existing] = await db.select({ id: customerAddresses.id }).from(customerAddresses).where(and(
    eq(customerAddresses.customerId, customerId), eq(customerAddresses.streetAddress, street), eq(customerAddresses.city, city),
    region === null ? sql`${customerAddresses.region} is null` : eq(customerAddresses.region, region),
    eq(customerAddresses.postalCode, postalCode), eq(customerAddresses.countryCode, country),
  ));
  if (existing) return existing.id;
  const taken = destination.id ? (await db.select({ id: customerAddresses.id }).from(customerAddresses).where(eq(customerAddresses.id, destination.id))).length > 0 : true;
  const id = !taken && destination.id ? destination.id : randomUUID();
  await db.insert(customerAddresses).values({ id, customerId, streetAddress: street, city, region, postalCode, countryCode: country });
  return id;
}

/** The sent methods with every whole destination saved and named by its saved id (the selection follows it). */
export async function saveSentDestinations(db: Queryable, buyer: Buyer | null | undefined, methods: readonly MethodInput[]): Promise<MethodInput[]> {
  const customerId = buyer ? await customerFor(db, buyer) : undefined;
  if (!customerId) return [...methods];
  return Promise.all(methods.map(async (method) => {
    if (!method.destinations) return method;
    let selected = method.selected_destination_id;
    const destinations = await Promise.all(method.destinations.map(async (destination) => {
      const savedId = await save(db, customerId, destination);
      if (!savedId) return destination;
      if (destination.id !== undefined && selected === destination.id) selected = savedId;
      return { ...destination, id: savedId };
    }));
    return { ...method, destinations, ...(selected !== undefined ? { selected_destination_id: selected } : {}) };
  }));
}

/** Shipping methods without destinations get the buyer's saved addresses to choose from. */
export async function offerSavedAddresses(db: Queryable, buyer: Buyer | null | undefined, fulfillment: StoredFulfillment): Promise<StoredFulfillment> {
  const email = buyer?.email?.trim();
  if (!email || !fulfillment.methods.some((method) => method.type === 'shipping' && method.destinations.length === 0)) return fulfillment;
  const known = await db.select({ id: customers.id }).from(customers).where(sql`lower(${customers.email}) = lower(${email})`);
  if (known.length === 0) return fulfillment;
  const rows = await db.select().from(customerAddresses).where(inArray(customerAddresses.customerId, known.map((row) => row.id)))
    .orderBy(customerAddresses.createdAt, customerAddresses.id);
  const saved: StoredDestination[] = rows.map((row) => ({
    id: row.id,
    street_address: row.streetAddress,
    address_locality: row.city,
    ...(row.region ? { address_region: row.region } : {}),
    postal_code: row.postalCode,
    address_country: row.countryCode,
  }));
  return {
    methods: fulfillment.methods.map((method) => (method.type === 'shipping' && method.destinations.length === 0 ? { ...method, destinations: saved } : method)),
  };
}
