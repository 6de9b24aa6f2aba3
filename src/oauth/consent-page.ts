import type { Scope } from '../access/scopes.ts';
import { renderPage } from '../edge/html/document.ts';
import { contentSecurityPolicy } from '../edge/html/policy.ts';
import { html } from '../edge/html/template.ts';
import type { Html } from '../edge/html/template.ts';
import { SITE_STYLESHEET } from '../site/document.ts';
import { isPlainWebOrigin } from './registration.ts';
import { SCOPE_EXPLANATIONS, SCOPE_GROUPS, preTicked } from './scope-groups.ts';

/**
 * Like the public pages: no script, styles from here only, and the page may not be framed (clickjacking the
 * approve button). The form posts only back to this site; because browsers apply form-action to the redirects
 * that follow a submission too, the client's own redirect target is allowed as well, or the approval could
 * never reach it. The referrer policy is same-origin, so the redirect chain does not hand the page's address
 * (the interaction id) to another site. Images come from here or any https host: a client's logo is shown only
 * when it is an https URL, and no script runs that could use an image to carry data away.
 */
export function consentPolicy(redirectUri: string | undefined): string {
  const redirect = redirectSource(redirectUri);
  return contentSecurityPolicy({ stylesheets: [SITE_STYLESHEET], images: 'https', formActions: ["'self'", ...(redirect ? [redirect] : [])] });
}

const PRIVATE_SCHEME = /^[a-z][a-z0-9+.-]*:$/;

/**
 * The CSP source of a redirect URI: its origin, or its scheme for an app's private-use scheme (RFC 8252).
 * The URI comes from a client, so only a source of the exact expected shape is written into the header.
 */
export function redirectSource(redirectUri: string | undefined): string {
  const url = redirectUri === undefined ? null : URL.parse(redirectUri);
  if (!url) return '';
  if (url.protocol === 'http:' || url.protocol === 'https:') return isPlainWebOrigin(url.origin) ? url.origin : '';
  return PRIVATE_SCHEME.test(url.protocol) ? url.protocol : '';
}

export type ConsentView = {
  uid: string;
  clientName: string;
  clientUri: string | undefined;
  /** The host of a client metadata document's URL (the client_id): who vouches for the name and logo. */
  documentHost: string | undefined;
  documentUrl: string | undefined;
  /** An https logo from the client's metadata; others are not shown (the CSP would block them). */
  logoUri: string | undefined;
  redirectUri: string;
  requested: readonly Scope[];
  /** Shown above the form after a wrong master key. */
  error?: string;
};

/** What the form needs beside the view: the CSRF token of this visitor (edge/form-csrf.ts). */
export type ConsentForm = ConsentView & { csrfToken: string };

function scopeGroups(requested: readonly Scope[]): Html[] {
  const ticked = preTicked(requested);
  return SCOPE_GROUPS.map((group) => html`<fieldset class="consent-${group.name}">
<legend>${group.title}</legend>
<p>${group.explanation}</p>
<ul>${group.scopes.map((scope) => html`<li><label><input type="checkbox" name="scope" value="${scope}"${
    ticked.has(scope) ? html` checked` : ''}> <code>${scope}</code></label> ${SCOPE_EXPLANATIONS[scope]}</li>`)}</ul>
</fieldset>
`);
}

/**
 * Who asks, as the person can check it: a client named by a metadata document is announced by the host its
 * document is served from, the one part of it nobody else can claim; its name and logo are its own word.
 */
function asker(view: ConsentView): Html {
  const logo = view.logoUri ? html`<img class="consent-logo" src="${view.logoUri}" alt="${view.clientName} logo" width="56" height="56">` : '';
  return html`<div class="consent-asker">${logo}<div>
<h1>Connect ${view.clientName}?</h1>
${view.documentHost ? html`<p class="consent-host"><strong>${view.documentHost}</strong> is asking to connect to this shop.</p>` : ''}
</div></div>`;
}

/** The owner's consent page: who asks, for which scopes; approve needs the master key. */
export function renderConsentPage(view: ConsentForm): string {
  return consentDocument(`Connect ${view.clientName} to this shop`, html`${asker(view)}
${view.error ? html`<p role="alert"><strong>${view.error}</strong></p>` : ''}
<p>The application <strong>${view.clientName}</strong>${view.clientUri ? html` (<code>${view.clientUri}</code>)` : ''}${
  view.documentHost ? html`, described by the document at <code>${view.documentUrl}</code>,` : ''}
asks to use this shop's tools on your behalf. After approval you are sent back to <code>${view.redirectUri}</code>.</p>
<p>What the application asked for is ticked; untick anything it should not have.</p>
<form method="post" action="/oauth/consent/${view.uid}">
<input type="hidden" name="_csrf" value="${view.csrfToken}">
${scopeGroups(view.requested)}
<p><label>Master key <input type="password" name="masterKey" autocomplete="off"></label></p>
<p><button class="button button-primary" type="submit" name="decision" value="approve">Approve</button>
<button class="button button-secondary" type="submit" name="decision" value="deny">Deny</button></p>
</form>`);
}

/** The page for a consent that cannot go on: expired, already answered, or ended after wrong master keys. */
export function renderEndedPage(heading: string, text: string): string {
  return consentDocument(heading, html`<h1>${heading}</h1>
<p>${text}</p>`);
}

function consentDocument(title: string, main: Html): string {
  return renderPage({ lang: 'en', title, referrer: 'same-origin', stylesheets: [SITE_STYLESHEET], main, mainClass: 'wrap consent' });
}
