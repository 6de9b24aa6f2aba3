import type { FastifyInstance } from 'fastify';
import { html } from '../../edge/html/template.ts';
import type { Html } from '../../edge/html/template.ts';
import type { AppDeps } from '../../deps.ts';
import { lowStock } from '../../shop/stock.ts';
import { readSettings } from '../../shop/settings.ts';
import { readTool } from '../call.ts';
import { sendAdminPage } from '../document.ts';
import { formatDate, formatMoney, startOfDay, today } from '../format.ts';
import { statusLabel } from '../order-status-words.ts';
import { targetTitle } from '../activity-words.ts';
import { t } from '../strings.ts';
import type { AuditEntry } from './activity.ts';
import type { OrderSummary } from './orders.ts';

type Summary = { orderCount: number; revenueDkk: number };
/** Orders a person has to act on: paid and waiting to be shipped, or held for review. */
const WAITING = ['paid', 'processing', 'flagged_review'] as const;

type FailedWebhook = { id: string; orderId: string; eventType: string; url: string; attempts: number; lastError: string | null; createdAt: string };

/** Order events a shopping agent's platform never received: retries gave up, webhooks.retry sends them again. */
function webhooksPanel(events: FailedWebhook[], timeZone: string): Html {
  return html`<section class="panel"><h2>${t.overview.failedWebhooks}</h2>${events.length === 0 ? html`<p>${t.none}</p>` : html`<p>${t.overview.failedWebhooksLead}</p><ul>${events.map((event) =>
    html`<li>${formatDate(event.createdAt, timeZone)} · ${event.eventType} · <a href="/admin/orders/${event.orderId}">${t.orders.order} ${event.orderId.slice(0, 8)}</a> · ${event.url} · ${event.lastError ?? ''} (${event.attempts})</li>`)}</ul>`}</section>`;
}

export function overviewRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { timeZone } = deps.config.admin;
  app.get('/admin/overview', async (request, reply) => {
    const who = request.staff;
    const now = deps.runtime.clock();
    const dayStart = startOfDay(today(now, timeZone), timeZone);
    const weekStart = new Date(dayStart.getTime() - 6 * 24 * 3600_000);
    const read = <T>(name: string, input: Record<string, unknown>) => readTool<T>(deps, request, who.actor, name, input);
    // webhooks.list exists only while UCP is on; without it there are no webhooks to fail.
    const webhooksOn = deps.registry.get('webhooks.list') !== undefined;
    const [day, week, waiting, entries, low, settings, failedWebhooks] = await Promise.all([
      read<Summary>('analytics.summary', { fromDate: dayStart.toISOString() }),
      read<Summary>('analytics.summary', { fromDate: weekStart.toISOString() }),
      Promise.all(WAITING.map((status) => read<OrderSummary[]>('orders.list', { status, limit: 10 }))).then((lists) => lists.flat()),
      read<AuditEntry[]>('audit.list', { limit: 50 }),
      lowStock(deps.runtime.db, { limit: 10 }),
      readSettings(deps.runtime.db),
      webhooksOn ? read<FailedWebhook[]>('webhooks.list', { status: 'failed', limit: 10 }) : undefined,
    ]);
    const money = (minor: number) => formatMoney(minor, settings.currency);
    // Agents are the API keys and connected apps (both act as kind "key"); the master key and the CLI are the owner.
    const agentActions = entries.filter((entry) => entry.actor.kind === 'key').slice(0, 8);
    const card = (label: string, summary: Summary) => html`<div class="card"><h2>${label}</h2><p><span class="figure">${summary.orderCount}</span> ${t.overview.orders}</p><p><span class="figure">${money(summary.revenueDkk)}</span> ${t.overview.revenue}</p></div>`;
    return sendAdminPage(reply, {
      title: t.overview.title, current: 'overview', viewer: who.viewer,
      main: html`<h1>${t.overview.title}</h1>
<div class="cards">${card(t.overview.today, day)}${card(t.overview.week, week)}</div>
<section class="panel"><h2>${t.overview.waiting}</h2>${waiting.length === 0 ? html`<p>${t.none}</p>` : html`<ul>${waiting.map((order) =>
        html`<li><a href="/admin/orders/${order.id}">${order.email}</a> · ${statusLabel(order.status)} · ${money(order.totalDkk)} · ${formatDate(order.createdAt, timeZone)}</li>`)}</ul>`}</section>
<section class="panel"><h2>${t.overview.lowStock}</h2>${low.length === 0 ? html`<p>${t.none}</p>` : html`<ul>${low.map((product) =>
        html`<li><a href="/admin/products/${product.slug}">${product.name}</a> · ${t.overview.stock}: ${product.stock}</li>`)}</ul>`}</section>
<section class="panel"><h2>${t.overview.lastAgent}</h2>${agentActions.length === 0 ? html`<p>${t.none}</p>` : html`<ul>${agentActions.map((entry) =>
        html`<li>${formatDate(entry.at, timeZone)} · <a href="/admin/activity?${new URLSearchParams({ actor: entry.actor.name }).toString()}"><strong>${entry.actor.name}</strong></a> · <a href="/admin/activity?target=${entry.targetId}">${targetTitle(entry)}</a> · <code>${entry.tool}</code></li>`)}</ul>`}</section>
${failedWebhooks ? webhooksPanel(failedWebhooks, timeZone) : ''}`,
    });
  });
}
