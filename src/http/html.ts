import { createHash } from 'node:crypto';

import { escapeHtml } from '../edge/html/escape.ts';

/** The reference pages' whole stylesheet, inline: no CDN, works offline (CONTRACT §3). */
const CSS = `
:root { color-scheme: light dark; --muted: #666; --line: #ddd; --accent: #0b5cad; --chip: #eef3f8; }
@media (prefers-color-scheme: dark) { :root { --muted: #aaa; --line: #444; --accent: #7ab7ff; --chip: #223; } }
body { font: 16px/1.5 system-ui, sans-serif; max-width: 62rem; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
a { color: var(--accent); }
h1 { margin-bottom: .2rem; } h2 { border-bottom: 1px solid var(--line); padding-bottom: .3rem; margin-top: 2.5rem; }
h3 { margin: 2rem 0 .3rem; font-family: ui-monospace, monospace; }
code, pre { font-family: ui-monospace, monospace; font-size: .9em; }
pre { background: var(--chip); padding: .8rem; overflow-x: auto; border-radius: 4px; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; font-size: .95em; }
th, td { text-align: left; vertical-align: top; border-bottom: 1px solid var(--line); padding: .3rem .5rem; }
.muted { color: var(--muted); }
.chip { display: inline-block; background: var(--chip); border-radius: 3px; padding: 0 .4rem; margin-right: .3rem; font-size: .85em; }
nav ul { columns: 3 14rem; padding-left: 1.2rem; }
`;

const CSS_HASH = createHash('sha256').update(CSS).digest('base64');

/** Nothing but the inline stylesheet above may load or run. */
export const HTML_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': `default-src 'none'; style-src 'sha256-${CSS_HASH}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  'x-content-type-options': 'nosniff',
};

/** A complete HTML document; `body` must already be escaped markup. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${CSS}</style>
</head>
<body>
${body}
</body>
</html>
`;
}
