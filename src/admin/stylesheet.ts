export const ADMIN_STYLESHEET_PATH = '/admin/assets/admin.css';

/** The console's only stylesheet: served from its own route, so the pages need no inline style. */
export const ADMIN_STYLESHEET = `
*,*::before,*::after{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2327;background:#f6f7f7}
a{color:#0a4b78}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,summary:focus-visible{outline:3px solid #d63638;outline-offset:2px}
.skip-link{position:absolute;left:-999px}.skip-link:focus{left:8px;top:8px;background:#fff;padding:8px;z-index:2}
header.bar{background:#1d2327;color:#fff;padding:8px 16px;display:flex;flex-wrap:wrap;gap:8px 24px;align-items:center}
header.bar a{color:#fff}
header.bar .brand{font-weight:700;margin:0}
nav.main ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:4px 16px}
nav.main a[aria-current=page]{text-decoration:underline 3px;font-weight:700}
.who{margin-left:auto;display:flex;flex-wrap:wrap;gap:8px;align-items:center}
.who form{margin:0}
main{max-width:1200px;margin:0 auto;padding:16px}
h1{font-size:1.6rem;margin:.5rem 0 1rem}
h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
.panel{background:#fff;border:1px solid #c3c4c7;border-radius:4px;padding:16px;margin-bottom:16px}
.panel>h2:first-child,.card h2{margin-top:0}
table+.panel{margin-top:16px}
.panel>p.meta{overflow-wrap:anywhere}
.cards{margin-bottom:16px;display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:12px}
.card{background:#fff;border:1px solid #c3c4c7;border-radius:4px;padding:12px}
.card .figure{font-size:1.4rem;font-weight:700;display:block;overflow-wrap:break-word}
form.filters{display:flex;flex-wrap:wrap;gap:8px 12px;align-items:flex-end}
label{display:block;font-weight:600;margin-bottom:2px}
.field{margin-bottom:12px}
input,select,textarea{font:inherit;padding:6px 8px;border:1px solid #8c8f94;border-radius:4px;max-width:100%;background:#fff;color:#1d2327}
input[type=checkbox]{width:auto}
textarea{width:100%;min-height:6rem}
.field input:not([type=checkbox]),.field select{width:100%}
button,.button{font:inherit;padding:6px 14px;border-radius:4px;border:1px solid #0a4b78;background:#0a4b78;color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
button.secondary,.button.secondary{background:#fff;color:#0a4b78}
button.danger,.button.danger{background:#b32d2e;border-color:#b32d2e;color:#fff}
.inline{display:inline}
.error{color:#b32d2e;font-weight:600;margin:2px 0 0}
.notice{border-left:4px solid #00a32a;background:#fff;padding:8px 12px;margin-bottom:12px}
.problem{border-left:4px solid #b32d2e;background:#fff;padding:8px 12px;margin-bottom:12px}
.secret{font-family:ui-monospace,monospace;word-break:break-all;background:#fcf9e8;padding:8px;border:1px solid #dba617}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #dcdcde;vertical-align:top;overflow-wrap:anywhere}
.num{text-align:right;white-space:nowrap}
.nowrap{white-space:nowrap}
fieldset.session{border:1px solid #c3c4c7;border-radius:4px;padding:8px 12px;margin:0 0 12px;min-width:0;background:#fff}
ul.session{list-style:none;padding:0;margin:0}ul.session li{padding:6px 0;border-bottom:1px solid #dcdcde;overflow-wrap:anywhere}
.choice{font-weight:400;display:flex;gap:6px;align-items:flex-start}.conflict{color:#8a2424;display:block}
.diff td:nth-child(2){background:#fcf0f1}.diff td:nth-child(3){background:#edfaef}
.entry{background:#fff;border:1px solid #c3c4c7;border-radius:4px;padding:12px;margin-bottom:12px}
.entry h2{margin-top:0}
.entry .meta{margin:0 0 8px;color:#50575e}
.entry .why-not{margin:8px 0 0;color:#50575e}
.summary{margin:0 0 4px}
details summary{cursor:pointer;color:#0a4b78;font-weight:600}
.pager{display:flex;gap:16px;margin:12px 0}
.thumbs{display:flex;flex-wrap:wrap;gap:8px}.thumbs img{width:96px;height:96px;object-fit:cover;border:1px solid #c3c4c7}
.scopes{border:1px solid #c3c4c7;padding:8px;display:grid;grid-template-columns:repeat(auto-fit,minmax(180px,1fr));gap:4px}
.scopes label{font-weight:400;display:flex;gap:6px;align-items:center}
.signin{max-width:420px;margin:10vh auto}
fieldset.section-edit,fieldset.column-edit{border:1px solid #c3c4c7;border-radius:4px;padding:12px;margin:0 0 12px;min-width:0}
fieldset.column-edit{background:#f6f7f7}
fieldset legend{font-weight:700;padding:0 4px}
.actions,.add{display:flex;flex-wrap:wrap;gap:8px;align-items:flex-end;margin:8px 0 0}
.add .field{margin:0}
dl.panel{display:grid;grid-template-columns:minmax(8rem,max-content) 1fr;gap:4px 16px}
dl.panel dt{font-weight:600}dl.panel dd{margin:0;overflow-wrap:anywhere;white-space:pre-line}
dl.facts{display:grid;grid-template-columns:minmax(8rem,max-content) 1fr;gap:4px 16px;margin:0 0 12px}
dl.facts div{display:contents}dl.facts dt{font-weight:600}dl.facts dd{margin:0;overflow-wrap:anywhere}
.badge{display:inline-block;min-width:1.4em;padding:0 6px;border-radius:9px;background:#b32d2e;color:#fff;font-size:.85em;text-align:center}
.status{font-weight:700}.status-pending{color:#8a4d00}.status-approved{color:#00702a}.status-denied,.status-failed{color:#b32d2e}
pre{overflow-x:auto;background:#f6f7f7;padding:8px;border:1px solid #dcdcde;border-radius:4px}
.decide{margin-top:12px}
.rules{margin:0;padding-left:1.2em}.rules li{margin:4px 0}
#policy-json{font-family:ui-monospace,monospace;min-height:14rem}
caption{text-align:left;font-weight:600;padding:4px 0}
dl.pairs{display:grid;grid-template-columns:minmax(8rem,max-content) 1fr;gap:4px 16px}
dl.pairs dt{font-weight:600}dl.pairs dd{margin:0;overflow-wrap:anywhere}
.hint{margin:-8px 0 12px;color:#50575e}
.field .hint{margin:4px 0 0}
address{font-style:normal}
@media print{
  header.bar,.skip-link,.no-print{display:none}
  body{background:#fff}main{max-width:none;padding:0}
}
@media (max-width:700px){
  table.stack thead{position:absolute;left:-9999px}
  table.stack tr{display:block;border-bottom:2px solid #c3c4c7}
  table.stack td{display:block;border:0;padding:2px 8px}
  table.stack td[data-label]::before,table.stack th[data-label]::before{content:attr(data-label) ": ";font-weight:600}
  table.stack th[scope=row]{display:block;border:0;padding:6px 8px 2px}
  dl.facts{grid-template-columns:1fr}
  .num{text-align:left}
}
`;
