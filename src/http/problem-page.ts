import { PROBLEMS } from '../errors/problems.ts';
import type { ProblemCode } from '../errors/problems.ts';
import { escapeHtml as e } from '../edge/html/escape.ts';
import { htmlPage } from './html.ts';

/** The page a problem's `type` URI points at (CONTRACT §3, §4): what the code means and what to do. */
export function renderProblemPage(code: ProblemCode, baseUrl: string): string {
  const { status, title, resolution } = PROBLEMS[code];
  return htmlPage(`${title} (${code})`, `<h1>${e(title)}</h1>
<p><span class="chip">code <code>${e(code)}</code></span><span class="chip">HTTP status ${e(status)}</span></p>
<h2>What to do</h2>
<p>${e(resolution)}</p>
<p class="muted">A failure with this code is answered as <code>application/problem+json</code> whose <code>type</code> is this
page's address and whose <code>detail</code> describes the particular request. See <a href="${e(baseUrl)}/docs#errors">all error codes</a>.</p>`);
}
