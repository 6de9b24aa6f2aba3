import type { UcpBuyerScope } from '../access/scopes.ts';
import { MIN_PASSWORD_LENGTH } from '../access/passwords.ts';
import { renderPage } from '../edge/html/document.ts';
import { contentSecurityPolicy } from '../edge/html/policy.ts';
import { html } from '../edge/html/template.ts';
import type { Html } from '../edge/html/template.ts';
import { SITE_STYLESHEET } from '../site/document.ts';
import { redirectSource } from './consent-page.ts';

/**
 * A buyer's pages, in the storefront's language and look: the link page (sign in and consent to a platform acting
 * for you, UCP identity linking) and the sign-up page. No script; forms post only here (and, for the link page,
 * on to the platform's redirect target, as consent-page.ts explains).
 */
export function buyerPolicy(redirectUri?: string): string {
  const redirect = redirectSource(redirectUri);
  return contentSecurityPolicy({ stylesheets: [SITE_STYLESHEET], formActions: ["'self'", ...(redirect ? [redirect] : [])] });
}

/** What each scope lets the platform do, in the words the buyer reads. */
const SCOPE_TEXT: Record<UcpBuyerScope, string> = {
  'dev.ucp.shopping.checkout:manage': 'Handle for dig: tilbyde de adresser, du har fået leveret til, når du handler, og knytte dine ordrer til din konto.',
  'dev.ucp.shopping.order:read': 'Se dine ordrer og deres status.',
};

export type LinkView = {
  uid: string;
  clientName: string;
  redirectUri: string;
  requested: readonly UcpBuyerScope[];
  csrfToken: string;
  email?: string;
  /** Shown above the form: a refused sign-in, a limit, a new account. */
  notice?: { text: string; problem: boolean };
};

function notice(view: { notice?: { text: string; problem: boolean } | undefined }): Html | string {
  if (!view.notice) return '';
  return view.notice.problem ? html`<p role="alert"><strong>${view.notice.text}</strong></p>` : html`<p role="status">${view.notice.text}</p>`;
}

/** Sign in and consent in one form: what the platform asks for, ticked, and the buyer's e-mail and password. */
export function renderLinkPage(view: LinkView): string {
  return buyerDocument(`Forbind din konto med ${view.clientName}`, html`<h1>Forbind din konto med ${view.clientName}?</h1>
${notice(view)}
<p><strong>${view.clientName}</strong> beder om lov til at handle for dig i denne butik. Når du har svaret, sendes du tilbage til
<code>${view.redirectUri}</code>. Du kan til enhver tid afbryde forbindelsen hos ${view.clientName}.</p>
<form method="post" action="/oauth/link/${view.uid}">
<input type="hidden" name="_csrf" value="${view.csrfToken}">
<fieldset>
<legend>Det må ${view.clientName}</legend>
<ul class="one-column">${view.requested.map((scope) => html`<li><label><input type="checkbox" name="scope" value="${scope}" checked> ${SCOPE_TEXT[scope]}</label></li>`)}</ul>
</fieldset>
<p><label for="email">E-mail</label><br><input id="email" name="email" type="email" autocomplete="username" required value="${view.email ?? ''}"></p>
<p><label for="password">Adgangskode</label><br><input id="password" name="password" type="password" autocomplete="current-password" required></p>
<p><button class="button button-primary" type="submit" name="decision" value="approve">Log ind og forbind</button>
<button class="button button-secondary" type="submit" name="decision" value="deny" formnovalidate>Afvis</button></p>
</form>
<p>Har du ingen konto? <a href="/oauth/sign-up?link=${view.uid}">Opret en konto</a>.</p>`);
}

export type SignUpView = { csrfToken: string; link?: string; email?: string; problem?: string };

export function renderSignUpPage(view: SignUpView): string {
  return buyerDocument('Opret en konto', html`<h1>Opret en konto</h1>
${view.problem ? html`<p role="alert"><strong>${view.problem}</strong></p>` : ''}
<p>Med en konto kan du give en indkøbsassistent lov til at handle for dig i denne butik.</p>
<form method="post" action="/oauth/sign-up">
<input type="hidden" name="_csrf" value="${view.csrfToken}">
${view.link ? html`<input type="hidden" name="link" value="${view.link}">` : ''}
<p><label for="email">E-mail</label><br><input id="email" name="email" type="email" autocomplete="username" required value="${view.email ?? ''}"></p>
<p><label for="password">Adgangskode (mindst ${MIN_PASSWORD_LENGTH} tegn)</label><br><input id="password" name="password" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required></p>
<p><button class="button button-primary" type="submit">Opret konto</button></p>
</form>`);
}

export function renderBuyerMessage(heading: string, text: string): string {
  return buyerDocument(heading, html`<h1>${heading}</h1>
<p>${text}</p>`);
}

function buyerDocument(title: string, main: Html): string {
  return renderPage({ lang: 'da', title, referrer: 'same-origin', stylesheets: [SITE_STYLESHEET], main, mainClass: 'wrap consent' });
}
