import { renderPage } from '../edge/html/document.ts';
import { contentSecurityPolicy } from '../edge/html/policy.ts';
import { inlineStylesheet } from '../edge/html/stylesheet.ts';
import type { Html } from '../edge/html/template.ts';

/** The reference pages' whole stylesheet, inline: no CDN, works offline, one request per page. */
const REFERENCE_STYLESHEET = inlineStylesheet(`
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
.skip-link { position: absolute; left: -999px; }
.skip-link:focus { left: .5rem; top: .5rem; background: Canvas; padding: .3rem .6rem; }
`);

/** Nothing but the inline stylesheet above may load or run on /docs and /problems/<code>. */
export const REFERENCE_POLICY = contentSecurityPolicy({ stylesheets: [REFERENCE_STYLESHEET] });

/** A developer page (/docs, /problems/<code>): English, self-contained, `chrome` before the main content. */
export function renderReferencePage(title: string, main: Html, chrome?: Html): string {
  return renderPage({
    lang: 'en',
    title,
    stylesheets: [REFERENCE_STYLESHEET],
    ...(chrome ? { chrome, skipLink: 'Skip to the content' } : {}),
    main,
  });
}
