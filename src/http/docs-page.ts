import { PROBLEMS, isProblemCode } from '../errors/problems.ts';
import { html, join } from '../edge/html/template.ts';
import type { Html } from '../edge/html/template.ts';
import { renderReferencePage } from './reference-page.ts';

type Json = Record<string, unknown>;

function record(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.fromEntries(Object.entries(value)) : {};
}
function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A short type name for a schema: `string`, `integer | null`, `array of object`, `"card" | "invoice"`. */
function typeOf(schema: Json): string {
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const union = list(schema.anyOf).length > 0 ? schema.anyOf : schema.oneOf;
  if (Array.isArray(union) && union.length > 0) return union.map((member) => typeOf(record(member))).join(' | ');
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  if (schema.type === 'array') return `array of ${typeOf(record(schema.items))}`;
  return text(schema.type) || 'any';
}

const CONSTRAINTS: Array<[string, string]> = [
  ['minLength', 'min length'], ['maxLength', 'max length'], ['minimum', 'min'], ['maximum', 'max'],
  ['exclusiveMinimum', 'greater than'], ['exclusiveMaximum', 'less than'], ['minItems', 'min items'],
  ['maxItems', 'max items'], ['pattern', 'pattern'], ['format', 'format'], ['default', 'default'],
];

function constraintsOf(schema: Json): Html {
  // A format (date-time, email, uri) says more to a reader than the regular expression zod derives from it.
  const parts = CONSTRAINTS.filter(([key]) => key in schema && !(key === 'pattern' && 'format' in schema))
    .map(([key, label]) => html`<span class="chip">${label} <code>${JSON.stringify(schema[key])}</code></span>`);
  const examples = list(schema.examples);
  if (examples.length > 0) parts.push(html`<span class="muted">e.g. <code>${examples.map((x) => JSON.stringify(x)).join(', ')}</code></span>`);
  return join(parts, ' ');
}

type Field = { path: string; schema: Json; required: boolean };

/** The object's fields, nested objects (and arrays of objects) flattened to dotted paths. */
function fieldsOf(schema: Json, prefix = '', depth = 0): Field[] {
  const objectSchema = schema.type === 'array' ? record(schema.items) : schema;
  const properties = record(objectSchema.properties);
  const required = new Set(list(objectSchema.required).map(text));
  const itemPrefix = schema.type === 'array' && prefix ? `${prefix}[].` : prefix ? `${prefix}.` : '';
  return Object.entries(properties).flatMap(([name, value]) => {
    const child = record(value);
    const path = `${itemPrefix}${name}`;
    const own: Field = { path, schema: child, required: required.has(name) };
    const nested = depth < 3 ? fieldsOf(child, path, depth + 1) : [];
    return [own, ...nested];
  });
}

/** A union of object shapes (e.g. one request shape per discount type) gets one table per variant. */
function fieldTable(schema: Json, empty: string): Html {
  const union = list(schema.anyOf).length > 0 ? list(schema.anyOf) : list(schema.oneOf);
  const variants = union.map(record).filter((member) => fieldsOf(member).length > 0);
  if (fieldsOf(schema).length === 0 && variants.length > 0) {
    return join(variants.map((variant, index) => html`<p>Variant ${index + 1} of ${union.length}${
      variant.description ? html`: ${text(variant.description)}` : ''}</p>\n${fieldRows(variant, empty)}`), '\n');
  }
  return fieldRows(schema, empty);
}

function fieldRows(schema: Json, empty: string): Html {
  const fields = fieldsOf(schema);
  if (fields.length === 0) return html`<p class="muted">${empty}</p>`;
  const rows = fields.map((field) => html`<tr><td><code>${field.path}</code></td><td>${typeOf(field.schema)}</td><td>${
    field.required ? 'required' : html`<span class="muted">optional</span>`}</td><td>${text(field.schema.description)} ${
    constraintsOf(field.schema)}</td></tr>`);
  return html`<table><thead><tr><th>Field</th><th>Type</th><th></th><th>Description</th></tr></thead><tbody>
${join(rows, '\n')}
</tbody></table>`;
}

type Operation = { tool: string; op: Json };

const TOOL_PATH = /^\/api\/v1\/tools\/(.+)$/;

function operationsOf(document: Json): Operation[] {
  return Object.entries(record(document.paths)).flatMap(([path, item]) => {
    const op = record(record(item).post);
    const tool = TOOL_PATH.exec(path)?.[1];
    return tool !== undefined && Object.keys(op).length > 0 ? [{ tool, op }] : [];
  });
}

/** The key routes: how a developer gets a key. */
function keysSection(document: Json, baseUrl: string): Html {
  const rows = Object.entries(record(document.paths)).filter(([path]) => path.startsWith('/api/v1/keys'))
    .flatMap(([path, item]) => Object.entries(record(item)).map(([method, op]) => {
      const operation = record(op);
      return html`<tr><td><code>${method.toUpperCase()} ${path}</code></td><td>${text(operation.summary)}</td><td>${
        text(operation.description)}</td></tr>`;
    }));
  return html`<h2 id="keys">Getting an API key</h2>
<p>Keys are managed over REST with the master key (<code>BUTIK_MASTER_KEY</code>, or the file
<code>BUTIK_DATA_DIR/master.key</code> that the first start generates), never over MCP:</p>
<table><thead><tr><th>Route</th><th></th><th></th></tr></thead><tbody>
${join(rows, '\n')}
</tbody></table>
<pre>curl -s ${baseUrl}/api/v1/keys -H "Authorization: Bearer $MASTER_KEY" -H 'content-type: application/json' \\
  -d '{"name": "my-agent", "scopes": ["catalog:read", "orders:read"]}'</pre>`;
}

/** The UCP checkout routes, when the shop has UCP switched on (their operations are tagged ucp). */
function ucpSection(document: Json, baseUrl: string): Html {
  const rows = Object.entries(record(document.paths))
    .flatMap(([path, item]) => Object.entries(record(item)).map(([method, op]) => ({ path, method, operation: record(op) })))
    .filter(({ operation }) => list(operation.tags).includes('ucp'))
    .map(({ path, method, operation }) => html`<tr><td><code>${method.toUpperCase()} ${path}</code></td><td>${text(operation.summary)}</td></tr>`);
  if (rows.length === 0) return html``;
  return html`<h2 id="ucp">UCP checkout for shopping agents</h2>
<p>Universal Commerce Protocol 2026-01-11: discovery at <a href="${baseUrl}/.well-known/ucp"><code>/.well-known/ucp</code></a>,
the REST binding below (every request names the platform in <code>UCP-Agent: profile="…"</code>), and the same operations
as MCP tools at <code>${baseUrl}/ucp/mcp</code>. Errors are UCP's structure, not problem+json.</p>
<table><thead><tr><th>Route</th><th></th></tr></thead><tbody>
${join(rows, '\n')}
</tbody></table>
<pre>curl -s ${baseUrl}/checkout-sessions -H 'UCP-Agent: profile="https://platform.example/profile"' \\
  -H 'content-type: application/json' -d '{"line_items": [{"item": {"id": "SKU"}, "quantity": 1}], "currency": "DKK"}'</pre>`;
}

function operationSection({ tool, op }: Operation): Html {
  const scope = text(op['x-service-required-scope']);
  const anonymous = op['x-service-anonymous-read'] === true;
  const request = record(record(record(record(op.requestBody).content)['application/json']).schema);
  const okBody = record(record(record(record(record(op.responses)['200']).content)['application/json']).schema);
  const result = record(record(okBody.properties).result);
  return html`<section id="${tool}">
<h3>${tool}</h3>
<p><span class="chip">scope <code>${scope}</code></span><span class="chip">${anonymous ? 'anonymous: no key needed' : 'needs an API key'}</span>${
  op.deprecated === true ? html`<span class="chip">deprecated</span>` : ''}<span class="muted">POST <code>/api/v1/tools/${tool}</code> · <code>${
  text(op.operationId)}</code></span></p>
<p><strong>${text(op.summary)}.</strong> ${text(op.description)}</p>
<h4>Request fields</h4>
${fieldTable(request, 'No parameters: send {}.')}
<h4>Result: <code>${typeOf(result)}</code></h4>
${fieldTable(result, 'No fields.')}
</section>`;
}

function errorsSection(document: Json, baseUrl: string): Html {
  const problem = record(record(record(document.components).schemas).Problem);
  const codes = list(record(record(problem.properties).code).enum).map(text).filter(isProblemCode);
  const rows = codes.map((code) => html`<tr><td><a href="${baseUrl}/problems/${code}"><code>${code}</code></a></td><td>${
    PROBLEMS[code].status}</td><td>${PROBLEMS[code].title}</td></tr>`);
  return html`<h2 id="errors">Errors</h2>
<p>Every failure is <code>application/problem+json</code> (RFC 9457) with <code>type</code>, <code>title</code>,
<code>status</code>, <code>detail</code>, <code>instance</code>, <code>code</code> and <code>resolution</code>, which says
what to do next.</p>
<table><thead><tr><th>code</th><th>status</th><th>title</th></tr></thead><tbody>
${join(rows, '\n')}
</tbody></table>`;
}

/** The human-readable API reference at /docs, rendered from the OpenAPI document alone. */
export function renderDocsPage(document: Json, baseUrl: string): string {
  const info = record(document.info);
  const title = text(info.title);
  const operations = operationsOf(document);
  const scopes = list(document['x-service-supported-scopes']).map(text);
  const tags = [...new Set(operations.map(({ tool }) => tool.split('.')[0] ?? tool))];
  const tagDescriptions = new Map(list(document.tags).map(record).map((tag) => [text(tag.name), text(tag.description)]));
  const chrome = html`<header>
<h1>${title}</h1>
<p class="muted">Version ${text(info.version)} · OpenAPI ${text(document.openapi)} · ${text(record(info.license).name)} licence</p>
<p>${text(info.description)}</p>
<p><a href="${baseUrl}/api/v1/openapi.json">OpenAPI document</a> · <a href="${baseUrl}/.well-known/api-catalog">API catalog</a>
· <a href="${baseUrl}/.well-known/mcp/server-card.json">MCP server card</a></p>
</header>
<nav aria-label="Tools"><ul>
${join(operations.map(({ tool }) => html`<li><a href="#${tool}"><code>${tool}</code></a></li>`), '\n')}
</ul></nav>`;
  const main = html`<h2 id="calling">Calling a tool</h2>
<p>Every tool is <code>POST ${baseUrl}/api/v1/tools/&lt;name&gt;</code> with a JSON object body. Success is
<code>200 {"ok": true, "result": …}</code>. Anonymous tools need no credentials; every other tool needs
<code>Authorization: Bearer &lt;API key&gt;</code> with the scope it names. A retry is safe with the same
<code>Idempotency-Key</code> header.</p>
<pre>curl -s ${baseUrl}/api/v1/tools/products.search -H 'content-type: application/json' -d '{"limit": 3}'</pre>
<p>Scopes: ${join(scopes.map((scope) => html`<code>${scope}</code>`), ', ')}.</p>
${keysSection(document, baseUrl)}
<h2 id="mcp">MCP</h2>
<p>The same tools are served over MCP (streamable HTTP, stateless) at <code>${baseUrl}/api/mcp</code>, with the same
names, schemas and scopes; send the API key as <code>Authorization: Bearer …</code> on every request.</p>
${join(tags.map((tag) => html`<h2 id="tag-${tag}">${tag}</h2>
<p>${tagDescriptions.get(tag) ?? ''}</p>
${join(operations.filter(({ tool }) => tool.startsWith(`${tag}.`)).map(operationSection), '\n')}`), '\n')}
${ucpSection(document, baseUrl)}
${errorsSection(document, baseUrl)}`;
  return renderReferencePage(`${title} reference`, main, chrome);
}
