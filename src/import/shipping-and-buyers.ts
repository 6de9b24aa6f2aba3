import { eq, sql } from 'drizzle-orm';
import { customerAddresses, customers } from '../db/schema.ts';
import { writePromotion, writeRate } from '../shop/shipping.ts';
import type { ImportRows } from './files.ts';
import type { ImportRun, Outcome } from './run.ts';

/**
 * Shipping rates, free-shipping promotions and known buyers. Rates and promotions are written by the same functions
 * as the shipping.* tools and audited like them (target types `shipping_rate` and `promotion`, tool `import`), so
 * Activity shows an imported price and audit.revert undoes it; known buyers are no tool's to change and are not
 * audited.
 */

export async function importShippingRates(run: ImportRun, rows: ImportRows['shipping_rates.csv']): Promise<void> {
  for (const { row } of rows) {
    await run.pace();
    const change = await writeRate(run.db, {
      id: row.id, countryCode: row.country_code, serviceLevel: row.service_level, price: row.price, title: row.title,
    }, run.now);
    if (change.changed) await run.audit('shipping_rate', row.id, change.before, change.after);
    run.count('shipping_rates.csv', outcomeOf(change));
  }
}

export async function importPromotions(run: ImportRun, rows: ImportRows['promotions.csv']): Promise<void> {
  for (const { row } of rows) {
    await run.pace();
    const change = await writePromotion(run.db, {
      id: row.id, minSubtotal: row.min_subtotal ?? null, eligibleSkus: row.eligible_item_ids, description: row.description,
    }, run.now);
    if (change.changed) await run.audit('promotion', row.id, change.before, change.after);
    run.count('promotions.csv', outcomeOf(change));
  }
}

function outcomeOf(change: { before: unknown; changed: boolean }): Outcome {
  if (!change.changed) return 'unchanged';
  return change.before === null ? 'created' : 'updated';
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
