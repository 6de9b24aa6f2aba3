import { SCOPES } from '../access/scopes.ts';
import type { Scope } from '../access/scopes.ts';
import { STYLESHEET_PATH } from '../site/document.ts';
import { html } from '../site/html.ts';

/**
 * Like the public pages: no script, styles from here only. The form may post only back to this site, and the
 * page may not be framed (clickjacking the approve button).
 */
export const CONSENT_POLICY = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; "
  + "form-action 'self'; frame-ancestors 'none'";

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
  const checkboxes = SCOPES.map((scope) => html`<li><label><input type="checkbox" name="scope" value="${scope}"${
    requested.has(scope) ? html` checked` : ''}> <code>${scope}</code></label></li>`);
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Connect ${view.clientName} to this shop</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
</head>
<body>
<main>
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
<p><button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button></p>
</form>
</main>
</body>
</html>
`.value;
}
