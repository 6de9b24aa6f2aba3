// The cart view (ui://butik/cart) for cart.create, cart.get, cart.set_item and cart.apply_discount.
import { el, isRecord, link, price, shopUrl, startView } from './view-kit.ts';
import type { ShopFacts } from './view-kit.ts';

type Line = { slug: string; productName: string; unitPriceDkk: number; quantity: number; lineTotalDkk: number };
type ShownCart = {
  cartId: string; items: Line[]; subtotalDkk: number; discountCode: string | null; discountDkk: number; shippingDkk: number; totalDkk: number;
};

function isLine(value: unknown): value is Line {
  return isRecord(value) && typeof value.productName === 'string' && typeof value.slug === 'string'
    && ['unitPriceDkk', 'quantity', 'lineTotalDkk'].every((key) => typeof value[key] === 'number');
}

function shownCart(value: unknown): ShownCart | undefined {
  if (!isRecord(value) || typeof value.cartId !== 'string' || !Array.isArray(value.items) || !value.items.every(isLine)) return undefined;
  if (!['subtotalDkk', 'discountDkk', 'shippingDkk', 'totalDkk'].every((key) => typeof value[key] === 'number')) return undefined;
  return value as ShownCart;
}

function totalRow(label: string, amount: string, className = ''): HTMLElement {
  return el('div', `total ${className}`.trim(), el('dt', '', label), el('dd', '', amount));
}

function lineItem(line: Line, shop: ShopFacts): HTMLElement {
  return el('li', 'line',
    el('span', 'line-name', line.productName),
    el('span', 'line-count', `${line.quantity} × ${price(line.unitPriceDkk, shop)}`),
    el('span', 'line-total', price(line.lineTotalDkk, shop)));
}

startView('Butik cart', (result, shop, app) => {
  const cart = shownCart(result);
  if (!cart) return undefined;
  const shown: Node[] = [el('h1', '', 'Kurv')];
  shown.push(cart.items.length === 0 ? el('p', 'note', 'Kurven er tom.') : el('ul', 'lines', ...cart.items.map((line) => lineItem(line, shop))));
  const totals = el('dl', 'totals', totalRow('Varer', price(cart.subtotalDkk, shop)));
  if (cart.discountDkk > 0) totals.append(totalRow(`Rabat${cart.discountCode ? ` (${cart.discountCode})` : ''}`, `−${price(cart.discountDkk, shop)}`));
  totals.append(totalRow('Fragt', price(cart.shippingDkk, shop)), totalRow('I alt', price(cart.totalDkk, shop), 'grand'));
  shown.push(totals);
  // Only while UCP is on does the shop have a buyer's page to pay on (docs/behaviour.md#mcp-apps).
  const checkout = shop.checkout && cart.items.length > 0 ? shopUrl(`/checkout/cart/${encodeURIComponent(cart.cartId)}`, shop) : undefined;
  if (checkout) shown.push(link(app, checkout, 'button', 'Gå til kassen'));
  return shown;
});
