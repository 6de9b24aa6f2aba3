import { SITE_TOKENS } from '../../site/stylesheet.ts';

/**
 * The views' stylesheet, inlined in each resource: the storefront's tokens and its card, price and button shapes,
 * sized for a chat column (375 px up). System fonts, no external requests.
 */
export const VIEW_CSS = `${SITE_TOKENS}
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; background: var(--paper); color: var(--ink); font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { padding: 0.75rem; max-width: 44rem; }
h1, h2 { line-height: 1.2; margin: 0 0 0.25rem; font-size: 1.25rem; }
p { margin: 0 0 0.4rem; }
a { color: var(--accent); }
a:focus-visible { outline: 3px solid var(--banner); outline-offset: 2px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.note { color: var(--muted); }
.cards { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.75rem; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); }
/* One product alone stays card-sized in a wide chat column. */
main > .card { max-width: 26rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); overflow: hidden; box-shadow: 0 1px 2px rgba(29, 36, 51, 0.06); }
.photo { display: block; width: 100%; aspect-ratio: 4 / 3; object-fit: cover; background: var(--line); }
.body { padding: 0.8rem 1rem 1rem; }
.brand { color: var(--muted); font-size: 0.9rem; }
.price { font-weight: 700; color: var(--accent); font-size: 1.15rem; }
.stock { font-size: 0.95rem; }
.sold-out { color: #9b2c2c; font-weight: 700; }
.button { display: inline-block; margin-top: 0.5rem; padding: 0.6rem 1.1rem; border-radius: 999px; font-weight: 700; text-decoration: none;
  background: var(--accent); color: var(--accent-ink); border: 2px solid var(--accent); }
.lines { list-style: none; margin: 0 0 0.75rem; padding: 0; border-top: 1px solid var(--line); }
.line { display: grid; grid-template-columns: 1fr auto; gap: 0 0.75rem; padding: 0.55rem 0; border-bottom: 1px solid var(--line); }
.line-name { font-weight: 600; overflow-wrap: anywhere; }
.line-count { color: var(--muted); font-size: 0.9rem; grid-row: 2; }
.line-total { grid-row: 1 / span 2; grid-column: 2; align-self: center; font-variant-numeric: tabular-nums; }
.totals { margin: 0; }
.total { display: flex; justify-content: space-between; gap: 1rem; padding: 0.15rem 0; }
.total dt { color: var(--muted); }
.total dd { margin: 0; font-variant-numeric: tabular-nums; }
.grand { border-top: 2px solid var(--ink); margin-top: 0.35rem; padding-top: 0.4rem; font-weight: 700; }
.grand dt { color: var(--ink); }
`;
