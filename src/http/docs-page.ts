import { PROBLEMS, isProblemCode } from '../errors/problems.ts';
import { escapeHtml as e } from '../edge/html/escape.ts';
import { htmlPage } from './html.ts';

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

function constraintsOf(schema: Json): string {
  // A format (date-time, email, uri) says more to a reader than the regular expression zod derives from it.
  const parts = CONSTRAINTS.filter(([key]) => key in schema && !(key === 'pattern' && 'format' in schema))
    .map(([key, label]) => `<span class="chip">${e(label)} <code>${e(JSON.stringify(schema[key]))}</code></span>`);
  const examples = list(schema.examples);
  if (examples.length > 0) parts.push(`<span class="muted">e.g. <code>${e(examples.map((x) => JSON.stringify(x)).join(', '))}</code></span>`);
  return parts.join(' ');
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
function fieldTable(schema: Json, empty: string): string {
  const union = list(schema.anyOf).length > 0 ? list(schema.anyOf) : list(schema.oneOf);
  const variants = union.map(record).filter((member) => fieldsOf(member).length > 0);
  if (fieldsOf(schema).length === 0 && variants.length > 0) {
    return variants.map((variant, index) => `<p>Variant ${index + 1} of ${union.length}${
      variant.description ? `: ${e(text(variant.description))}` : ''}</p>\n${fieldRows(variant, empty)}`).join('\n');
  }
  return fieldRows(schema, empty);
}

function fieldRows(schema: Json, empty: string): string {
  const fields = fieldsOf(schema);
  if (fields.length === 0) return `<p class="muted">${e(empty)}</p>`;
  const rows = fields.map((field) => `<tr><td><code>${e(field.path)}</code></td><td>${e(typeOf(field.schema))}</td>`
    + `<td>${field.required ? 'required' : '<span class="muted">optional</span>'}</td>`
    + `<td>${e(text(field.schema.description))} ${constraintsOf(field.schema)}</td></tr>`).join('\n');
  return `<table><thead><tr><th>Field</th><th>Type</th><th></th><th>Description</th></tr></thead><tbody>\n${rows}\n</tbody></table>`;
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

/** The key routes (CONTRACT §2): how a developer gets a key. */
function keysSection(document: Json, baseUrl: string): string {
  const rows = Object.entries(record(document.paths)).filter(([path]) => path.startsWith('/api/v1/keys'))
    .flatMap(([path, item]) => Object.entries(record(item)).map(([method, op]) => {
      const operation = record(op);
      return `<tr><td><code>${e(method.toUpperCase())} ${e(path)}</code></td><td>${e(text(operation.summary))}</td>`
        + `<td>${e(text(operation.description))}</td></tr>`;
    })).join('\n');
  return `<h2 id="keys">Getting an API key</h2>
<p>Keys are managed over REST with the master key (<code>BUTIK_MASTER_KEY</code>, or the file
<code>BUTIK_DATA_DIR/master.key</code> that the first start generates), never over MCP:</p>
<table><thead><tr><th>Route</th><th></th><th></th></tr></thead><tbody>
${rows}
</tbody></table>
<pre>curl -s ${e(baseUrl)}/api/v1/keys -H "Authorization: Bearer $MASTER_KEY" -H 'content-type: application/json' \\
  -d '{"name": "my-agent", "scopes": ["catalog:read", "orders:read"]}'</pre>`;
}

/** The UCP checkout routes, when the shop has UCP switched on (their operations are tagged ucp). */
function ucpSection(document: Json, baseUrl: string): string {
  const rows = Object.entries(record(document.paths))
    .flatMap(([path, item]) => Object.entries(record(item)).map(([method, op]) => ({ path, method, operation: record(op) })))
    .filter(({ operation }) => list(operation.tags).includes('ucp'))
    .map(({ path, method, operation }) => `<tr><td><code>${e(method.toUpperCase())} ${e(path)}</code></td><td>${e(text(operation.summary))}</td></tr>`);
  if (rows.length === 0) return '';
  return `<h2 id="ucp">UCP checkout for shopping agents</h2>
<p>Universal Commerce Protocol 2026-01-11: discovery at <a href="${e(baseUrl)}/.well-known/ucp"><code>/.well-known/ucp</code></a>,
the REST binding below (every request names the platform in <code>UCP-Agent: profile="…"</code>), and the same operations
as MCP tools at <code>${e(baseUrl)}/ucp/mcp</code>. Errors are UCP's structure, not problem+json.</p>
<table><thead><tr><th>Route</th><th></th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
<pre>curl -s ${e(baseUrl)}/checkout-sessions -H 'UCP-Agent: profile="https://platform.example/profile"' \\
  -H 'content-type: application/json' -d '{"line_items": [{"item": {"id": "SKU"}, "quantity": 1}], "currency": "DKK"}'</pre>`;
}

function operationSection({ tool, op }: Operation): string {
  const scope = text(op['x-service-required-scope']);
  const anonymous = op['x-service-anonymous-read'] === true;
  const request = record(record(record(record(op.requestBody).content)['application/json']).schema);
  const okBody = record(record(record(record(record(op.responses)['200']).content)['application/json']).schema);
  const result = record(record(okBody.properties).result);
  return `<section id="${e(tool)}">
<h3>${e(tool)}</h3>
<p><span class="chip">scope <code>${e(scope)}</code></span>`
    + `<span class="chip">${anonymous ? 'anonymous: no key needed' : 'needs an API key'}</span>`
    + `${op.deprecated === true ? '<span class="chip">deprecated</span>' : ''}`
    + `<span class="muted">POST <code>/api/v1/tools/${e(tool)}</code> · <code>${e(text(op.operationId))}</code></span></p>
<p><strong>${e(text(op.summary))}.</strong> ${e(text(op.description))}</p>
<h4>Request fields</h4>
${fieldTable(request, 'No parameters: send {}.')}
<h4>Result: <code>${e(typeOf(result))}</code></h4>
${fieldTable(result, 'No fields.')}
</section>`;
}

function errorsSection(document: Json, baseUrl: string): string {
  const problem = record(record(record(document.components).schemas).Problem);
  const codes = list(record(record(problem.properties).code).enum).map(text).filter(isProblemCode);
  const rows = codes.map((code) => `<tr><td><a href="${e(baseUrl)}/problems/${e(code)}"><code>${e(code)}</code></a></td>`
    + `<td>${e(PROBLEMS[code].status)}</td><td>${e(PROBLEMS[code].title)}</td></tr>`).join('\n');
  return `<h2 id="errors">Errors</h2>
<p>Every failure is <code>application/problem+json</code> (RFC 9457) with <code>type</code>, <code>title</code>,
<code>status</code>, <code>detail</code>, <code>instance</code>, <code>code</code> and <code>resolution</code>, which says
what to do next.</p>
<table><thead><tr><th>code</th><th>status</th><th>title</th></tr></thead><tbody>
${rows}
</tbody></table>`;
}

/** The human-readable API reference of CONTRACT §3, rendered from the OpenAPI document alone. */
export function renderDocsPage(document: Json, baseUrl: string): string {
  const info = record(document.info);
  const title = text(info.title);
  const operations = operationsOf(document);
  const scopes = list(document['x-service-supported-scopes']).map(text);
  const tags = [...new Set(operations.map(({ tool }) => tool.split('.')[0] ?? tool))];
  const tagDescriptions = new Map(list(document.tags).map(record).map((tag) => [text(tag.name), text(tag.description)]));
  const body = `<header>
<h1>${e(title)}</h1>
<p class="muted">Version ${e(text(info.version))} · OpenAPI ${e(text(document.openapi))} · ${e(text(record(info.license).name))} licence</p>
<p>${e(text(info.description))}</p>
<p><a href="${e(baseUrl)}/api/v1/openapi.json">OpenAPI document</a> · <a href="${e(baseUrl)}/.well-known/api-catalog">API catalog</a>
· <a href="${e(baseUrl)}/.well-known/mcp/server-card.json">MCP server card</a></p>
</header>
<nav><ul>
${operations.map(({ tool }) => `<li><a href="#${e(tool)}"><code>${e(tool)}</code></a></li>`).join('\n')}
</ul></nav>
<h2 id="calling">Calling a tool</h2>
<p>Every tool is <code>POST ${e(baseUrl)}/api/v1/tools/&lt;name&gt;</code> with a JSON object body. Success is
<code>200 {"ok": true, "result": …}</code>. Anonymous tools need no credentials; every other tool needs
<code>Authorization: Bearer &lt;API key&gt;</code> with the scope it names. A retry is safe with the same
<code>Idempotency-Key</code> header.</p>
<pre>curl -s ${e(baseUrl)}/api/v1/tools/products.search -H 'content-type: application/json' -d '{"limit": 3}'</pre>
<p>Scopes: ${scopes.map((scope) => `<code>${e(scope)}</code>`).join(', ')}.</p>
${keysSection(document, baseUrl)}
<h2 id="mcp">MCP</h2>
<p>The same tools are served over MCP (streamable HTTP, stateless) at <code>${e(baseUrl)}/api/mcp</code>, with the same
names, schemas and scopes; send the API key as <code>Authorization: Bearer …</code> on every request.</p>
${tags.map((tag) => `<h2 id="tag-${e(tag)}">${e(tag)}</h2>\n<p>${e(tagDescriptions.get(tag) ?? '')}</p>\n`
  + operations.filter(({ tool }) => tool.startsWith(`${tag}.`)).map(operationSection).join('\n')).join('\n')}
${ucpSection(document, baseUrl)}
${errorsSection(document, baseUrl)}`;
  return htmlPage(`${title} reference`, body);
}
