import { PROBLEMS } from '../errors/problems.ts';
import type { ProblemCode } from '../errors/problems.ts';
import { html } from '../edge/html/template.ts';
import { renderReferencePage } from './reference-page.ts';

/** The page a problem's `type` URI points at: what the code means and what to do about it. */
export function renderProblemPage(code: ProblemCode, baseUrl: string): string {
  const { status, title, resolution } = PROBLEMS[code];
  return renderReferencePage(`${title} (${code})`, html`<h1>${title}</h1>
<p><span class="chip">code <code>${code}</code></span><span class="chip">HTTP status ${status}</span></p>
<h2>What to do</h2>
<p>${resolution}</p>
<p class="muted">A failure with this code is answered as <code>application/problem+json</code> whose <code>type</code> is this
page's address and whose <code>detail</code> describes the particular request. See <a href="${baseUrl}/docs#errors">all error codes</a>.</p>`);
}
