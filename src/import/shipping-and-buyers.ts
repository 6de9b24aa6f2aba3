import { eq, sql } from 'drizzle-orm';
import { markConfigWritten } from '../db/read-cache.ts';
import { customerAddresses, customers, promotions, shippingRates } from '../db/schema.ts';
import type { ImportRows } from './files.ts';
import type { ImportRun } from './run.ts';

/**
 * Shipping rates, free-shipping promotions and known buyers. The import does not audit them (import the old files
 * again to go back); the shipping.* tools, which change rates and promotions one by one, do.
 */

export async function importShippingRates(run: ImportRun, rows: ImportRows['shipping_rates.csv']): Promise<void> {
  // Kept in memory beside the settings (shop/shipping.ts): dropped when the import's transaction ends.
  if (rows.length > 0) markConfigWritten(run.db);
  for (const { row } of rows) {
    await run.pace();
    const wanted = { countryCode: row.country_code, serviceLevel: row.service_level, price: row.price, title: row.title };
    const [existing] = await run.db.select().from(shippingRates).where(eq(shippingRates.id, row.id)).for('update');
    run.count('shipping_rates.csv', await run.upsertPlain(existing, wanted, {
      insert: () => run.db.insert(shippingRates).values({ id: row.id, ...wanted }),
      update: (changes) => run.db.update(shippingRates).set({ ...changes, updatedAt: run.now }).where(eq(shippingRates.id, row.id)),
    }));
  }
}

export async function importPromotions(run: ImportRun, rows: ImportRows['promotions.csv']): Promise<void> {
  if (rows.length > 0) markConfigWritten(run.db);
  for (const { row } of rows) {
    await run.pace();
    const wanted = {
      type: row.type, minSubtotal: row.min_subtotal ?? null, eligibleSkus: row.eligible_item_ids, description: row.description,
    };
    const [existing] = await run.db.select().from(promotions).where(eq(promotions.id, row.id)).for('update');
    run.count('promotions.csv', await run.upsertPlain(existing, wanted, {
      insert: () => run.db.insert(promotions).values({ id: row.id, ...wanted }),
      update: (changes) => run.db.update(promotions).set({ ...changes, updatedAt: run.now }).where(eq(promotions.id, row.id)),
    }));
  }
}

export async function importCustomers(run: ImportRun, rows: ImportRows['customers.csv'], addresses: ImportRows['addresses.csv']): Promise<void> {
  for (const { line, row } of rows) {
    await run.pace();
    const wanted = { name: row.name, email: row.email };
    const [sameEmail] = await run.db.select({ id: customers.id }).from(customers)
      .where(sql`lower(${customers.email}) = lower(${row.email})`);
    if (sameEmail && sameEmail.id !== row.id) {
      run.problem('customers.csv', line, `email: ${row.email} belongs to customer "${sameEmail.id}" already`);
      continue;
    }
    const [existing] = await run.db.select().from(customers).where(eq(customers.id, row.id)).for('update');
    run.count('customers.csv', await run.upsertPlain(existing, wanted, {
      insert: () => run.db.insert(customers).values({ id: row.id, ...wanted }),
      update: (changes) => run.db.update(customers).set({ ...changes, updatedAt: run.now }).where(eq(customers.id, row.id)),
    }));
  }
  for (const { line, row } of addresses) {
    await run.pace();
    const [customer] = await run.db.select({ id: customers.id }).from(customers).where(eq(customers.id, row.customer_id));
    if (!customer) {
      run.problem('addresses.csv', line, `customer_id: no customer "${row.customer_id}" in customers.csv or the shop`);
      continue;
    }
    const wanted = {
      customerId: row.customer_id, streetAddress: row.street_address, city: row.city, region: row.state ?? null,
      postalCode: row.postal_code, countryCode: row.country,
    };
    const [existing] = await run.db.select().from(customerAddresses).where(eq(customerAddresses.id, row.id)).for('update');
    run.count('addresses.csv', await run.upsertPlain(existing, wanted, {
      insert: () => run.db.insert(customerAddresses).values({ id: row.id, ...wanted }),
      update: (changes) => run.db.update(customerAddresses).set({ ...changes, updatedAt: run.now }).where(eq(customerAddresses.id, row.id)),
    }));
  }
}
