import type { FastifyInstance } from 'fastify';
import type { OrderStatus } from '../../domain/order-status.ts';
import { html } from '../../edge/html/template.ts';
import type { AppDeps } from '../../deps.ts';
import { readSettings } from '../../shop/settings.ts';
import { readTool } from '../call.ts';
import { sendAdminPage } from '../document.ts';
import { formatDate, formatMoney } from '../format.ts';
import { statusLabel } from '../order-status-words.ts';
import { t } from '../strings.ts';

const PAGE_SIZE = 25;

type Customer = { email: string; name: string; orderCount: number; totalSpentDkk: number; firstOrderAt: string; lastOrderAt: string };
type SavedAddress = { streetAddress: string; city: string; region: string | null; postalCode: string; countryCode: string; savedBy: keyof typeof t.customers.savedByWho };
type CustomerDetail = Customer & {
  recentOrders: Array<{ id: string; status: OrderStatus; totalDkk: number; itemCount: number; createdAt: string }>;
  savedAddresses: SavedAddress[];
};

function addressLine(address: SavedAddress): string {
  return [address.streetAddress, `${address.postalCode} ${address.city}`, address.region, address.countryCode].filter(Boolean).join(', ');
}
type ListQuery = { q?: string; page?: string };

/** Customers, as customers.list and customers.get derive them from orders: a searchable, paged list and one customer's page. */
export function customerPages(app: FastifyInstance, deps: AppDeps): void {
  const { timeZone } = deps.config.admin;

  app.get<{ Querystring: ListQuery }>('/admin/customers', async (request, reply) => {
    const who = request.staff;
    const q = request.query.q?.trim().slice(0, 200) ?? '';
    const pageNumber = Math.min(Math.max(Number.parseInt(request.query.page ?? '1', 10) || 1, 1), 400);
    const customers = await readTool<Customer[]>(deps, request, who.actor, 'customers.list', {
      ...(q ? { q } : {}), limit: PAGE_SIZE, offset: (pageNumber - 1) * PAGE_SIZE,
    });
    const { currency } = await readSettings(deps.runtime.db);
    const link = (n: number) => `/admin/customers?${new URLSearchParams({ ...(q ? { q } : {}), page: String(n) }).toString()}`;
    return sendAdminPage(reply, {
      title: t.customers.title, current: 'customers', viewer: who.viewer,
      main: html`<h1>${t.customers.title}</h1>
<form class="filters panel" method="get" action="/admin/customers"><div><label for="f-q">${t.customers.search}</label><input id="f-q" name="q" type="search" value="${q}"></div>
<button type="submit">${t.filter}</button></form>
${customers.length === 0 ? html`<p>${t.none}</p>` : html`<table class="stack"><thead><tr><th scope="col">${t.customers.name}</th><th scope="col">${t.customers.email}</th><th scope="col" class="num">${t.customers.orders}</th><th scope="col" class="num">${t.customers.spent}</th><th scope="col">${t.customers.last}</th></tr></thead><tbody>
${customers.map((customer) => html`<tr><td data-label="${t.customers.name}"><a href="/admin/customers/${encodeURIComponent(customer.email)}">${customer.name}</a></td><td data-label="${t.customers.email}">${customer.email}</td><td data-label="${t.customers.orders}" class="num">${customer.orderCount}</td><td data-label="${t.customers.spent}" class="num">${formatMoney(customer.totalSpentDkk, currency)}</td><td data-label="${t.customers.last}">${formatDate(customer.lastOrderAt, timeZone)}</td></tr>`)}
</tbody></table>`}
<nav class="pager" aria-label="Pages">${pageNumber > 1 ? html`<a href="${link(pageNumber - 1)}">${t.customers.previous}</a>` : ''}${customers.length === PAGE_SIZE ? html`<a href="${link(pageNumber + 1)}">${t.customers.next}</a>` : ''}</nav>`,
    });
  });

  app.get<{ Params: { email: string } }>('/admin/customers/:email', async (request, reply) => {
    const who = request.staff;
    const customer = await readTool<CustomerDetail>(deps, request, who.actor, 'customers.get', { email: request.params.email });
    const { currency } = await readSettings(deps.runtime.db);
    return sendAdminPage(reply, {
      title: customer.name, current: 'customers', viewer: who.viewer,
      main: html`<h1>${customer.name}</h1>
<dl class="pairs panel"><dt>${t.customers.email}</dt><dd>${customer.email}</dd><dt>${t.customers.orders}</dt><dd>${customer.orderCount}</dd>
<dt>${t.customers.spent}</dt><dd>${formatMoney(customer.totalSpentDkk, currency)}</dd><dt>${t.customers.first}</dt><dd>${formatDate(customer.firstOrderAt, timeZone)}</dd></dl>
<h2>${t.customers.recent}</h2><table class="stack"><thead><tr><th scope="col">${t.orders.order}</th><th scope="col">${t.orders.status}</th><th scope="col" class="num">${t.orders.total}</th><th scope="col">${t.orders.placed}</th></tr></thead><tbody>
${customer.recentOrders.map((order) => html`<tr><td data-label="${t.orders.order}"><a href="/admin/orders/${order.id}">${order.id.slice(0, 8)}</a></td><td data-label="${t.orders.status}">${statusLabel(order.status)}</td><td data-label="${t.orders.total}" class="num">${formatMoney(order.totalDkk, currency)}</td><td data-label="${t.orders.placed}">${formatDate(order.createdAt, timeZone)}</td></tr>`)}
</tbody></table>
<p><a href="/admin/orders?${new URLSearchParams({ email: customer.email }).toString()}">${t.customers.allOrders}</a></p>
<h2>${t.customers.addresses}</h2>${customer.savedAddresses.length === 0 ? html`<p>${t.customers.noAddresses}</p>` : html`<table class="stack"><thead><tr><th scope="col">${t.customers.address}</th><th scope="col">${t.customers.savedBy}</th></tr></thead><tbody>
${customer.savedAddresses.map((address) => html`<tr><td data-label="${t.customers.address}">${addressLine(address)}</td><td data-label="${t.customers.savedBy}">${t.customers.savedByWho[address.savedBy]}</td></tr>`)}
</tbody></table>`}`,
    });
  });
}
