import { html, link } from '../edge/html/template.ts';
import type { Html } from '../edge/html/template.ts';
import type { PageView } from '../site/document.ts';
import { formatPrice } from '../site/money.ts';
import type { CheckoutModel } from './checkout-model.ts';
import { NO_HANDLER } from './explain.ts';
import type { Explained } from './explain.ts';
import type { CheckoutForm, FieldName, Problems } from './form.ts';

/** The handler whose payment form this page can show: test mode's mock handler, which takes a card number. */
export const CARD_HANDLER_NAME = 'dev.ucp.mock_payment';

export const checkoutPath = (id: string) => `/checkout/${id}`;

function problemText(id: string, problem: Explained): Html {
  return html`<p class="problem" id="${id}"><strong>${problem.detail}</strong> ${problem.resolution}</p>`;
}

type FieldOptions = {
  name: FieldName;
  label: string;
  value: string;
  problem: Explained | undefined;
  type?: 'text' | 'email' | 'tel';
  autocomplete: string;
  inputmode?: 'numeric';
  hint?: string;
};

/** A labelled input; a problem with it is tied to it (aria-describedby) and marks it invalid. */
function field(options: FieldOptions): Html {
  const id = `felt-${options.name}`;
  const described = [options.hint ? `${id}-hint` : '', options.problem ? `${id}-problem` : ''].filter(Boolean).join(' ');
  return html`<div class="field${options.problem ? ' has-problem' : ''}">
<label for="${id}">${options.label}</label>
${options.hint ? html`<p class="hint" id="${id}-hint">${options.hint}</p>` : ''}
<input id="${id}" name="${options.name}" type="${options.type ?? 'text'}" value="${options.value}" autocomplete="${options.autocomplete}"${options.inputmode
    ? html` inputmode="${options.inputmode}"` : ''}${described ? html` aria-describedby="${described}"` : ''}${options.problem ? html` aria-invalid="true"` : ''}>
${options.problem ? problemText(`${id}-problem`, options.problem) : ''}
</div>`;
}

function linesTable(model: CheckoutModel, caption: string): Html {
  const money = (amount: number) => formatPrice(amount, model.currency);
  return html`<table class="checkout-lines">
<caption>${caption}</caption>
<thead><tr><th scope="col">Vare</th><th scope="col" class="number">Antal</th><th scope="col" class="number">Pris</th></tr></thead>
<tbody>${model.lines.map((line) => html`<tr><td>${line.title}</td><td class="number">${line.quantity}</td><td class="number">${money(line.total)}</td></tr>`)}</tbody>
<tfoot>
<tr><th scope="row" colspan="2">Varer i alt</th><td class="number">${money(model.subtotal)}</td></tr>
${model.discount > 0 ? html`<tr><th scope="row" colspan="2">Rabat</th><td class="number">−${money(model.discount)}</td></tr>` : ''}
${model.shipping !== undefined ? html`<tr><th scope="row" colspan="2">Fragt</th><td class="number">${money(model.shipping)}</td></tr>` : ''}
<tr class="grand-total"><th scope="row" colspan="2">I alt inkl. moms</th><td class="number">${money(model.total)}</td></tr>
</tfoot>
</table>`;
}

function shippingChoice(model: CheckoutModel, form: CheckoutForm, problem: Explained | undefined): Html {
  if (model.options.length === 0) {
    return html`<p class="hint">Udfyld adressen, og tryk <strong>Opdatér pris og levering</strong> for at se, hvordan vi kan sende varerne.</p>`;
  }
  return html`<fieldset class="options${problem ? ' has-problem' : ''}"${problem ? html` aria-describedby="felt-option-problem"` : ''}>
<legend>Leveringsmåde</legend>
${model.options.map((option) => html`<label class="option"><input type="radio" name="option" value="${option.id}"${option.id === form.option ? html` checked` : ''}>
${option.title} <span class="price">${formatPrice(option.amount, model.currency)}</span></label>`)}
${problem ? problemText('felt-option-problem', problem) : ''}
</fieldset>`;
}

function payment(model: CheckoutModel, problems: Problems, testMode: boolean): Html {
  const handler = model.handlers.find((candidate) => candidate.name === CARD_HANDLER_NAME);
  if (!handler) return html`<p><strong>${NO_HANDLER.detail}</strong> ${NO_HANDLER.resolution}</p>`;
  return html`${field({
    name: 'card', label: 'Kortnummer', value: '', problem: problems.card, autocomplete: 'cc-number', inputmode: 'numeric',
    hint: testMode ? 'Testbetaling: ingen penge trækkes. Brug et gyldigt testkort, fx 4242 4242 4242 4242.' : undefined,
  })}
<button type="submit" name="action" value="pay" class="button button-primary">Betal ${formatPrice(model.total, model.currency)}</button>`;
}

/** The checkout form of an open session: lines and totals, buyer, address, shipping, discount code, payment. */
export function checkoutView(model: CheckoutModel, form: CheckoutForm, problems: Problems, page: { csrfToken: string; testMode: boolean }): PageView {
  return {
    title: 'Kassen',
    description: 'Gør dit køb færdigt.',
    main: html`<h1>Kassen</h1>
${problems.form ? html`<div class="problem-box" role="alert">${problemText('formular-problem', problems.form)}</div>` : ''}
<div class="checkout">
<section class="checkout-summary" aria-labelledby="dine-varer"><h2 id="dine-varer">Dine varer</h2>
${problems.lines ? problemText('varer-problem', problems.lines) : ''}
${linesTable(model, 'Varerne i kurven med priser')}
</section>
<form method="post" action="${checkoutPath(model.id)}" class="checkout-form">
<input type="hidden" name="_csrf" value="${page.csrfToken}">
<h2>Dine oplysninger</h2>
${field({ name: 'email', label: 'E-mail', value: form.email, problem: problems.email, type: 'email', autocomplete: 'email' })}
${field({ name: 'name', label: 'Navn', value: form.name, problem: problems.name, autocomplete: 'name' })}
${field({ name: 'phone', label: 'Telefon (valgfri)', value: form.phone, problem: problems.phone, type: 'tel', autocomplete: 'tel' })}
<h2>Levering</h2>
${field({ name: 'street', label: 'Adresse', value: form.street, problem: problems.street, autocomplete: 'street-address' })}
<div class="field-row">
${field({ name: 'zip', label: 'Postnummer', value: form.zip, problem: problems.zip, autocomplete: 'postal-code' })}
${field({ name: 'city', label: 'By', value: form.city, problem: problems.city, autocomplete: 'address-level2' })}
</div>
${field({ name: 'country', label: 'Land (landekode)', value: form.country, problem: problems.country, autocomplete: 'country', hint: 'To bogstaver, fx DK.' })}
${shippingChoice(model, form, problems.option)}
<h2>Rabatkode</h2>
${field({ name: 'codes', label: 'Rabatkode (valgfri)', value: form.codes, problem: problems.codes, autocomplete: 'off' })}
<p><button type="submit" name="action" value="update" class="button button-secondary">Opdatér pris og levering</button></p>
<h2>Betaling</h2>
${payment(model, problems, page.testMode)}
</form>
</div>`,
  };
}

/** What a completed session shows: the order number, the lines and what was paid. */
export function confirmationView(model: CheckoutModel): PageView {
  return {
    title: 'Tak for din bestilling',
    main: html`<h1>Tak for din bestilling</h1>
<p class="lead">Vi har modtaget din betaling, og ordren er på vej.</p>
<p>Ordrenummer: <strong class="order-number">${model.orderId ?? model.id}</strong></p>
${linesTable(model, 'Det har du købt')}
<p>${link('/', 'Tilbage til butikken')}</p>`,
  };
}

/** A session that ended without an order: canceled by the platform or expired. */
export function endedView(): PageView {
  return notice('Købet er afsluttet', 'Købet blev annulleret eller udløb, før det blev betalt. Der er ikke trukket penge.', 'Start et nyt køb i butikken.');
}

/** A page that only says what went wrong and what to do, with a way back to the shop. */
export function notice(title: string, detail: string, resolution: string): PageView {
  return {
    title,
    main: html`<h1>${title}</h1>
<div class="problem-box"><p><strong>${detail}</strong> ${resolution}</p></div>
<p>${link('/products', 'Til butikken')}</p>`,
  };
}
