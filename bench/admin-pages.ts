import type { ButikServer } from './servers.ts';

/** How long one console page took to render and send, over several sequential requests on a warm server. */
export type AdminPageTiming = { path: string; label: string; status: number; p50: number; p95: number; max: number; bytes: number };

const EMAIL = 'bench-owner@butik.test';
const PASSWORD = 'bench owner password 0123';
const WARMUP = 3;
const SAMPLES = 20;

/** The owner the console pages are read as: made with the master key through the owner-commands route. */
async function ownerCookie(butik: ButikServer): Promise<string> {
  const added = await fetch(`${butik.url}/api/v1/commands/staff.add`, {
    method: 'POST',
    headers: { authorization: `Bearer ${butik.masterKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: EMAIL, role: 'owner', password: PASSWORD }),
  });
  // A database reused from an earlier run has the owner already.
  if (!added.ok && added.status !== 409) throw new Error(`could not add the bench owner: ${added.status} ${await added.text()}`);
  const signedIn = await fetch(`${butik.url}/admin/login`, {
    method: 'POST', redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: EMAIL, password: PASSWORD }).toString(),
  });
  const cookie = signedIn.headers.getSetCookie().find((line) => line.startsWith('butik_admin='))?.split(';')[0];
  if (signedIn.status !== 303 || !cookie) throw new Error(`the bench owner could not sign in: ${signedIn.status}`);
  return cookie;
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round((sorted[Math.max(0, index)] ?? 0) * 10) / 10;
}

async function timePage(butik: ButikServer, cookie: string, path: string, label: string): Promise<AdminPageTiming> {
  const times: number[] = [];
  let status = 0;
  let bytes = 0;
  for (let i = 0; i < WARMUP + SAMPLES; i += 1) {
    const started = performance.now();
    const response = await fetch(`${butik.url}${path}`, { headers: { cookie }, redirect: 'manual' });
    const body = await response.text();
    const ms = performance.now() - started;
    status = response.status;
    bytes = body.length;
    if (i >= WARMUP) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return { path, label, status, p50: percentile(times, 50), p95: percentile(times, 95), max: percentile(times, 100), bytes };
}

/**
 * Every page of the console, read one request at a time by a signed-in owner (no other load), so a figure is
 * the time the server takes to render it on the bench catalog: the lists' first pages, a search, one product
 * and one order as a person opens them.
 */
export async function adminPageTimes(butik: ButikServer, options: { productSlug: string }): Promise<AdminPageTiming[]> {
  const cookie = await ownerCookie(butik);
  const orders = await (await fetch(`${butik.url}/admin/orders`, { headers: { cookie } })).text();
  const orderId = /href="\/admin\/orders\/([0-9a-f-]{36})"/.exec(orders)?.[1];
  const customers = await (await fetch(`${butik.url}/admin/customers`, { headers: { cookie } })).text();
  const customer = /href="(\/admin\/customers\/[^"]+)"/.exec(customers)?.[1];
  const pages: Array<[string, string]> = [
    ['/admin/overview', 'Overview'],
    ['/admin/activity', 'Activity'],
    ['/admin/orders', 'Orders'],
    ['/admin/orders?status=paid', 'Orders, one status'],
    ...(orderId ? [[`/admin/orders/${orderId}`, 'One order'] as [string, string]] : []),
    ['/admin/products', 'Products'],
    ['/admin/products?q=titanium', 'Products, search'],
    ['/admin/products?page=40', 'Products, page 40'],
    [`/admin/products/${options.productSlug}`, 'One product'],
    ['/admin/categories', 'Categories'],
    ['/admin/keys', 'API keys'],
    ['/admin/apps', 'Connected apps'],
    ['/admin/settings', 'Settings and features'],
    ['/admin/import', 'Import'],
    ...(orderId ? [[`/admin/orders/${orderId}/slip`, 'Packing slip'] as [string, string]] : []),
    ['/admin/customers', 'Customers'],
    ...(customer ? [[customer, 'One customer'] as [string, string]] : []),
    ['/admin/products/new', 'New product'],
    ['/admin/discounts', 'Discount codes'],
    ['/admin/pages', 'Pages'],
    ['/admin/services', 'Services'],
    ['/admin/shipping', 'Shipping'],
    ['/admin/settings/search-words', 'Search words'],
    ['/admin/approvals', 'Approvals'],
    ['/admin/policies', 'Policies'],
    ['/admin/agents', 'Agents'],
    ['/admin/staff', 'Staff'],
    ['/admin/account', 'Your account'],
  ];
  const timings: AdminPageTiming[] = [];
  for (const [path, label] of pages) timings.push(await timePage(butik, cookie, path, label));
  return timings;
}
