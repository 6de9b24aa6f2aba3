import { TOOL_SCOPES } from '../access/scopes.ts';
import type { Scope } from '../access/scopes.ts';
import { STYLESHEET_PATH } from '../site/document.ts';
import { html } from '../edge/html/template.ts';

/**
 * Like the public pages: no script, styles from here only, and the page may not be framed (clickjacking the
 * approve button). The form posts only back to this site; because browsers apply form-action to the redirects
 * that follow a submission too, the client's own redirect target is allowed as well, or the approval could
 * never reach it. The referrer policy is same-origin, not no-referrer: under no-referrer a browser posts the
 * form with `Origin: null`, which the CSRF check refuses.
 */
export function consentPolicy(redirectUri: string | undefined): string {
  return "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; "
    + `form-action 'self'${redirectSource(redirectUri)}; frame-ancestors 'none'`;
}

/** The CSP source of a redirect URI: its origin, or its scheme for an app's private-use scheme (RFC 8252). */
function redirectSource(redirectUri: string | undefined): string {
  if (!redirectUri || !URL.canParse(redirectUri)) return '';
  const url = new URL(redirectUri);
  if (url.protocol === 'http:' || url.protocol === 'https:') return ` ${url.origin}`;
  return /^[a-z][a-z0-9+.-]*:$/i.test(url.protocol) ? ` ${url.protocol}` : '';
}

export type ConsentView = {
  uid: string;
  clientName: string;
  clientUri: string | undefined;
  redirectUri: string;
  requested: readonly Scope[];
  /** Shown above the form after a wrong master key. */
  error?: string;
};

/** The owner's consent page: who asks, for which scopes; approve needs the master key. */
export function renderConsentPage(view: ConsentView): string {
  const requested = new Set<Scope>(view.requested);
  const checkboxes = TOOL_SCOPES.map((scope) => html`<li><label><input type="checkbox" name="scope" value="${scope}"${
    requested.has(scope) ? html` checked` : ''}> <code>${scope}</code></label></li>`);
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>Connect ${view.clientName} to this shop</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
</head>
<body>
<main class="wrap consent">
<h1>Connect ${view.clientName}?</h1>
${view.error ? html`<p role="alert"><strong>${view.error}</strong></p>` : ''}
<p>The application <strong>${view.clientName}</strong>${view.clientUri ? html` (<code>${view.clientUri}</code>)` : ''}
asks to use this shop's tools on your behalf. After approval you are sent back to <code>${view.redirectUri}</code>.</p>
<form method="post" action="/oauth/consent/${view.uid}">
<fieldset>
<legend>Scopes to grant</legend>
<ul>${checkboxes}</ul>
</fieldset>
<p><label>Master key <input type="password" name="masterKey" autocomplete="current-password"></label></p>
<p><button class="button button-primary" type="submit" name="decision" value="approve">Approve</button>
<button class="button button-secondary" type="submit" name="decision" value="deny">Deny</button></p>
</form>
</main>
</body>
</html>
`.value;
}
