/** The one stylesheet of the public pages, served at /assets/site.css. System fonts, no external requests. */
/** The storefront's colours and corner; the MCP Apps views (src/mcp/apps/) wear them too. */
export const SITE_TOKENS = `:root {
  --ink: #1d2433; --muted: #5a6275; --paper: #fbfaf7; --card: #ffffff; --line: #e4e1d8;
  --accent: #1f5f8b; --accent-ink: #ffffff; --banner: #f3d36b; --radius: 12px;
  color-scheme: light;
}`;

export const SITE_CSS = `${SITE_TOKENS}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0; background: var(--paper); color: var(--ink); min-height: 100vh; display: flex; flex-direction: column;
  font: 1.0625rem/1.6 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
.wrap { max-width: 60rem; margin: 0 auto; padding: 0 1.25rem; }
a { color: var(--accent); text-underline-offset: 0.15em; }
a:hover { text-decoration-thickness: 2px; }
a:focus-visible, .button:focus-visible { outline: 3px solid var(--banner); outline-offset: 2px; }
img { max-width: 100%; height: auto; display: block; }
h1, h2, h3, h4 { line-height: 1.2; margin: 1.6em 0 0.5em; }
h1 { font-size: clamp(1.9rem, 5vw, 2.6rem); margin-top: 1.2em; letter-spacing: -0.01em; }
h2 { font-size: 1.45rem; }
h3 { font-size: 1.15rem; }
p, ul { margin: 0 0 1em; }
.skip-link { position: absolute; left: -999px; top: 0; background: var(--ink); color: #fff; padding: 0.5rem 1rem; }
.skip-link:focus { left: 0.5rem; z-index: 10; }
.announcement { background: var(--banner); color: #2b2300; font-weight: 600; text-align: center; }
.announcement p { margin: 0; padding: 0.55rem 1.25rem; }
.announcement a { color: inherit; }
.site-header { background: var(--card); border-bottom: 1px solid var(--line); }
.header-inner { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0.5rem 1.5rem; padding-top: 0.9rem; padding-bottom: 0.9rem; }
.brand { margin: 0; font-size: 1.3rem; font-weight: 800; letter-spacing: -0.02em; }
.tagline { margin: 0; color: var(--muted); font-size: 0.9rem; }
.brand a { color: var(--ink); text-decoration: none; }
.site-nav ul, .footer-links { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.25rem 1.1rem; }
.site-nav a { color: var(--ink); text-decoration: none; padding: 0.25rem 0; border-bottom: 2px solid transparent; }
.site-nav a:hover, .site-nav a[aria-current="page"] { border-bottom-color: var(--accent); }
main { padding-bottom: 3rem; flex: 1 0 auto; width: 100%; }
.lead { font-size: 1.2rem; color: var(--muted); max-width: 40rem; }
.price { font-weight: 700; color: var(--accent); }
.service-list { list-style: none; padding: 0; display: grid; gap: 1rem; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); }
.service-card article { height: 100%; background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); padding: 1.1rem 1.25rem; box-shadow: 0 1px 2px rgba(29, 36, 51, 0.06); }
.service-card h2 { margin-top: 0; font-size: 1.25rem; }
.service-card h2 a { text-decoration: none; }
.service-card h2 a:hover { text-decoration: underline; }
.service-card p:last-child { margin-bottom: 0; }
.breadcrumb { margin-top: 1.25rem; font-size: 0.95rem; }
.breadcrumb + .service h1 { margin-top: 0.4em; }
.hero-image { border-radius: var(--radius); margin: 1rem 0 1.5rem; width: 100%; max-height: 26rem; object-fit: cover; background: var(--card); }
.features ul { padding-left: 1.2rem; }
.features li::marker { color: var(--accent); }
.page, .service, .service-body { max-width: 44rem; }
.page-layout { max-width: none; }
.hero { display: grid; gap: 1rem 2rem; align-items: center; margin: 1.5rem 0 2rem; }
.hero h1, .hero h2 { margin-top: 0.2em; }
.hero .hero-image { margin: 0; }
.text, .figure { max-width: 44rem; }
.figure { margin: 1.5rem 0; }
.figure img { border-radius: var(--radius); }
figcaption { color: var(--muted); font-size: 0.95rem; margin-top: 0.4rem; }
.columns { display: grid; gap: 1.5rem; margin: 1.5rem 0; }
.column > section, .column > figure, .column > p { margin-top: 0; }
.column h2 { margin-top: 0; font-size: 1.2rem; }
.button { display: inline-block; padding: 0.65rem 1.2rem; border-radius: 999px; font-weight: 700; text-decoration: none; border: 2px solid var(--accent); }
.button-primary { background: var(--accent); color: var(--accent-ink); }
.button-secondary { background: transparent; color: var(--accent); }
.site-footer { border-top: 1px solid var(--line); background: var(--card); color: var(--muted); padding: 1.5rem 0; font-size: 0.95rem; }
.company { margin: 0.75rem 0 0; font-style: normal; }
.muted { color: var(--muted); }
.intro { margin: 1.5rem 0 1rem; }
.product-grid { list-style: none; padding: 0; display: grid; gap: 1rem; grid-template-columns: repeat(auto-fill, minmax(13rem, 1fr)); }
.product-card a { display: flex; flex-direction: column; gap: 0.2rem; height: 100%; color: var(--ink); text-decoration: none; background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); padding: 0.9rem; box-shadow: 0 1px 2px rgba(29, 36, 51, 0.06); }
.product-card a:hover { border-color: var(--accent); }
.product-card img { border-radius: 8px; margin-bottom: 0.5rem; background: var(--paper); aspect-ratio: 8 / 5; object-fit: contain; width: 100%; }
.product-name { font-weight: 700; line-height: 1.3; }
.product-brand { color: var(--muted); font-size: 0.95rem; }
.product-card .price { margin-top: auto; }
.sold-out { color: #9b2c2c; font-weight: 700; font-size: 0.9rem; }
.category-list { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.5rem 1.25rem; }
.pager { display: flex; gap: 1.25rem; align-items: center; justify-content: center; margin: 2rem 0 0; }
.product { display: grid; gap: 1.5rem 2rem; margin-top: 1rem; }
.product-image { border-radius: var(--radius); background: var(--card); border: 1px solid var(--line); width: 100%; }
.product-text h1 { margin-top: 0.2em; }
.product-price { font-size: 1.5rem; margin-bottom: 0.25rem; }
.product-price .muted { font-size: 1rem; font-weight: 400; }
.stock { color: var(--muted); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 1rem 0; }
.facts dt { font-weight: 700; }
.facts dd { margin: 0; }
.developers { margin-top: 2.5rem; border-top: 1px solid var(--line); }
.consent fieldset { border: 1px solid var(--line); border-radius: var(--radius); background: var(--card); padding: 0.75rem 1.25rem; }
.consent fieldset ul { list-style: none; padding: 0; columns: 2 14rem; }
.consent fieldset ul.one-column { columns: auto; }
.consent fieldset ul.one-column li + li { margin-top: 0.5rem; }
.consent input[type="password"], .consent input[type="email"] { font: inherit; padding: 0.4rem 0.6rem; border: 1px solid var(--line); border-radius: 8px; width: min(100%, 24rem); }
.consent button { font: inherit; cursor: pointer; }
.consent-asker { display: flex; align-items: center; gap: 1rem; margin: 1rem 0; }
.consent-asker h1 { margin: 0; overflow-wrap: anywhere; }
.consent-logo { flex: none; width: 56px; height: 56px; object-fit: contain; border-radius: 12px; border: 1px solid var(--line); background: var(--card); }
.consent-host { font-size: 1.25rem; margin: 0.25rem 0 0; overflow-wrap: anywhere; }
.consent code { overflow-wrap: anywhere; }
.buy-form { display: flex; flex-wrap: wrap; align-items: end; gap: 0.75rem; margin: 1rem 0; }
.buy-form label { display: block; font-weight: 700; width: 100%; }
.buy-form input, .field input { font: inherit; padding: 0.5rem 0.65rem; border: 1px solid #8a8f9c; border-radius: 8px; background: var(--card); color: var(--ink); }
.buy-form input { width: 6rem; }
.buy-form input, .buy-form .button { min-height: 2.9rem; }
.buy-form button, .checkout-form button { font: inherit; cursor: pointer; }
.buy-form input:focus-visible, .field input:focus-visible, .option input:focus-visible, .button:focus-visible { outline: 3px solid var(--banner); outline-offset: 2px; }
.checkout-lines { width: 100%; border-collapse: collapse; background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); margin: 0.5rem 0 1.5rem; }
.checkout-lines caption { text-align: left; color: var(--muted); padding-bottom: 0.4rem; }
.checkout-lines th, .checkout-lines td { padding: 0.55rem 0.75rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
.checkout-lines .number { text-align: right; white-space: nowrap; }
.checkout-lines tfoot th { font-weight: 400; }
.checkout-lines .grand-total th, .checkout-lines .grand-total td { font-weight: 800; border-bottom: 0; }
.checkout-form { max-width: 36rem; margin-bottom: 2.5rem; }
.checkout-summary h2 { margin-top: 0.5em; }
.field { margin: 0 0 1rem; }
.field label { display: block; font-weight: 700; margin-bottom: 0.2rem; }
.field input { width: 100%; }
.field-row { display: grid; gap: 0 1rem; }
.hint { color: var(--muted); font-size: 0.95rem; margin: 0 0 0.3rem; }
.has-problem input { border: 2px solid #9b2c2c; }
.problem { color: #8a1f1f; margin: 0.35rem 0 0; }
.problem-box { border: 2px solid #9b2c2c; border-radius: var(--radius); background: #fff5f5; padding: 0.75rem 1rem; margin: 1rem 0; }
.problem-box p { margin: 0; }
.options { border: 1px solid var(--line); border-radius: var(--radius); background: var(--card); padding: 0.5rem 1rem 0.75rem; margin: 0 0 1rem; }
.options legend { font-weight: 700; padding: 0 0.25rem; }
.option { display: flex; gap: 0.6rem; align-items: baseline; padding: 0.35rem 0; }
.option .price { margin-left: auto; }
.order-number { word-break: break-all; }
code { background: #efede6; padding: 0.1em 0.35em; border-radius: 4px; word-break: break-all; }
@media (min-width: 48rem) {
  .hero { grid-template-columns: 1fr 1fr; }
  .hero-text:only-child { grid-column: 1 / -1; }
  .columns-2 { grid-template-columns: repeat(2, 1fr); }
  .columns-3 { grid-template-columns: repeat(3, 1fr); }
  .columns-4 { grid-template-columns: repeat(4, 1fr); }
  .product { grid-template-columns: 1fr 1fr; align-items: start; }
  .field-row { grid-template-columns: minmax(8rem, 1fr) 2fr; }
}
@media (min-width: 60rem) {
  .checkout { display: grid; grid-template-columns: minmax(0, 34rem) minmax(0, 1fr); gap: 0 3rem; align-items: start; }
  .checkout-form { grid-column: 1; grid-row: 1; }
  .checkout-summary { grid-column: 2; grid-row: 1; position: sticky; top: 1rem; }
}
`;
