import { ANY_CALLER } from '../access/actor.ts';
import { TOOL_SCOPES } from '../access/scopes.ts';
import { PROBLEM_CODES } from '../errors/problems.ts';
import { toJsonSchema } from '../tools/registry.ts';
import type { RegisteredTool } from '../tools/registry.ts';
import { HeldAnswer } from '../calls/run-call.ts';
import { z } from 'zod';
import type { OpenApiExtension } from '../deps.ts';
import { keysPaths, MASTER_KEY_SCHEME } from './keys-openapi.ts';
import { failureResponses, successContent } from './openapi-responses.ts';

type Json = Record<string, unknown>;

const problemSchema: Json = {
  type: 'object',
  description: 'RFC 9457 problem details, plus the legacy ok/error members kept for one compatibility window.',
  required: ['type', 'title', 'status', 'detail', 'instance', 'code', 'resolution', 'ok', 'error'],
  properties: {
    type: { type: 'string', format: 'uri', description: 'BASE_URL/problems/<code>; a human-readable page.' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    instance: { type: 'string', description: 'urn:butik:request:<request id>; the id is also in X-Request-Id.' },
    code: { type: 'string', enum: PROBLEM_CODES },
    resolution: { type: 'string', description: 'What a client (often an AI agent) should do next.' },
    errors: {
      type: 'array',
      description: 'Validation failures, one per offending field.',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: { path: { type: 'string' }, message: { type: 'string' } },
      },
    },
    reason: { type: 'string', description: 'Why a discount is not applicable: unknown_code, inactive, expired, usage_limit_reached.' },
    legalNextStatuses: {
      type: 'array',
      items: { type: 'string' },
      description: 'For illegal_transition: the statuses the order may move to now (empty when its status is terminal).',
    },
    shortLines: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          slug: { type: 'string' },
          requested: { type: 'integer', description: 'Units the cart asks for.' },
          available: { type: 'integer', description: 'Units in stock now; 0 for a product no longer sold.' },
        },
        required: ['slug', 'requested', 'available'],
      },
      description: 'For out_of_stock: every cart line the stock cannot cover.',
    },
    auditEntryId: {
      type: 'string',
      description: 'For not_found of a deleted product: the audit entry whose audit.revert restores it.',
    },
    current: {
      type: 'object',
      description: 'For precondition_failed: the record as it is now, in the shape its get tool answers.',
    },
    ok: { type: 'boolean', const: false, description: 'Legacy member.' },
    error: {
      type: 'object',
      description: 'Legacy member: the same code, and detail as message.',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' } },
    },
  },
};

const rateLimitHeaders: Json = {
  'RateLimit-Policy': { description: 'Structured policy of the limit closest to exhaustion, e.g. "anon";q=60;w=60.', schema: { type: 'string' } },
  RateLimit: { description: 'Remaining quota and seconds to reset, e.g. "anon";r=59;t=60.', schema: { type: 'string' } },
  'RateLimit-Limit': { description: 'Legacy: quota of the window.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Legacy: requests left in the window.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Legacy: seconds until the window resets.', schema: { type: 'integer' } },
};

const problem = (description: string, schema = '#/components/schemas/Problem', headers: Json = {}): Json => ({
  description,
  headers,
  content: { 'application/problem+json': { schema: { $ref: schema } } },
});

/** One line per tool family, for the OpenAPI tag list and the reference page. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  products: 'The product catalog: search, read, create, update, soft-delete and images.',
  categories: 'Catalog categories.',
  discounts: 'Discount codes and their usage.',
  cart: 'Carts and checkout into an order.',
  orders: 'Orders and their status transitions.',
  audit: 'The audit log of every write, and reverting an entry.',
  pages: 'CMS pages and their Visual Builder layouts.',
  services: 'Agency-style service offerings shown at /services.',
  site: 'Published pages as the public site shows them.',
  settings: 'Shop settings such as shipping prices.',
  features: 'Feature flags.',
  analytics: 'Sales and catalog figures.',
  customers: 'Customers derived from orders.',
  marketing: 'Announcements and product marketing content.',
  images: 'Product images.',
};

/** A write an owner's policy held for a person's approval: nothing was written (docs/behaviour.md#a-held-call). */
const HELD_RESPONSE: Json = {
  description: 'Held for a person\'s approval; nothing was written. Poll approvals.get with approval.id.',
  content: { 'application/json': { schema: toJsonSchema(HeldAnswer.extend({ ok: z.literal(true) }), 'output') } },
};

const etagHeader: Json = {
  ETag: { description: 'The record\'s version token (docs: no lost updates); send it back as If-Match with an update.', schema: { type: 'string' } },
};

function operationFor(tool: RegisteredTool): Json {
  const id = `invoke_${tool.name.replaceAll('.', '_')}`;
  // A tool with a version hands out an ETag; a write among them also takes it back as If-Match.
  const conditional = tool.version !== undefined && !tool.annotations.readOnlyHint;
  return {
    operationId: id,
    summary: tool.annotations.title,
    description: tool.description,
    tags: [tool.name.split('.')[0]],
    ...(tool.deprecated ? { deprecated: true } : {}),
    security: tool.anonymous ? [] : [{ bearerAuth: tool.scope === ANY_CALLER ? [] : [tool.scope] }],
    'x-service-required-scope': tool.scope,
    'x-service-anonymous-read': tool.anonymous === true,
    parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }, ...(conditional ? [{ $ref: '#/components/parameters/IfMatch' }] : [])],
    requestBody: { required: true, content: { 'application/json': { schema: tool.inputJsonSchema } } },
    responses: {
      200: {
        description: 'The tool ran.',
        headers: tool.version !== undefined ? { ...rateLimitHeaders, ...etagHeader } : rateLimitHeaders,
        content: successContent(tool.outputJsonSchema),
      },
      ...(tool.annotations.readOnlyHint ? {} : { 202: HELD_RESPONSE }),
      ...failureResponses,
      ...(conditional ? { 412: { $ref: '#/components/responses/PreconditionFailed' } } : {}),
    },
  };
}

/** The OpenAPI 3.1 document (docs/behaviour.md#discovery), generated from the registry. */
export function buildOpenApi(tools: readonly RegisteredTool[], baseUrl: string, extension?: OpenApiExtension): Json {
  const paths: Json = {};
  for (const tool of tools) paths[`/api/v1/tools/${tool.name}`] = { post: operationFor(tool) };
  Object.assign(paths, keysPaths(), extension?.paths);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Butik Agent API',
      version: '1.0.0',
      description: 'Tools over a small web shop and content site for AI agents and people. Every tool is a POST with a '
        + 'JSON body; amounts are integer øre (1/100 DKK) incl. 25 % VAT. Failures are application/problem+json with a '
        + 'resolution. The same tools are served over MCP at /api/mcp.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: baseUrl }],
    'x-service-supported-scopes': [...TOOL_SCOPES, ...(extension?.scopes ?? [])],
    tags: [...new Set(tools.map((tool) => tool.name.split('.')[0] ?? tool.name))]
      .map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? `The ${name}.* tools.` }))
      .concat({ name: 'keys', description: 'API key management with the master key (REST only, never an MCP tool).' })
      .concat(extension ? [extension.tag] : []),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: Authorization: Bearer bk_…' },
        masterKey: MASTER_KEY_SCHEME,
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Makes a retry safe: the same key with the same body returns the stored result (24 h).',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
        IfMatch: {
          name: 'If-Match',
          in: 'header',
          required: false,
          description: 'The ETag of the record as last read: the update is made only if the record has not changed since, '
            + 'otherwise 412 precondition_failed and nothing is written. Without it the update is unconditional.',
          schema: { type: 'string' },
        },
      },
      schemas: {
        Problem: problemSchema,
        UnauthorizedProblem: {
          allOf: [{ $ref: '#/components/schemas/Problem' }],
          description: 'Problem for a missing, malformed, unknown, expired or revoked key (code unauthorized).',
        },
        ...extension?.schemas,
        RateLimitedProblem: {
          allOf: [{ $ref: '#/components/schemas/Problem' }],
          description: 'Problem for an exceeded rate limit (code rate_limited).',
        },
      },
      responses: {
        BadRequest: problem('Body is not JSON (invalid_json) or violates the tool schema (validation_failed).'),
        Unauthorized: problem('Authentication needed or the key is invalid (unauthorized).', '#/components/schemas/UnauthorizedProblem', {
          'WWW-Authenticate': { description: 'Bearer realm="butik"', schema: { type: 'string' } },
        }),
        Forbidden: problem('The key lacks the required scope (insufficient_scope).', '#/components/schemas/Problem', {
          'WWW-Authenticate': { description: 'Bearer challenge naming the missing scope.', schema: { type: 'string' } },
        }),
        NotFound: problem('Unknown tool, or the named resource does not exist.'),
        Conflict: problem('The slug or code exists already, or the Idempotency-Key is in use.'),
        PreconditionFailed: problem('The record changed since the ETag sent in If-Match was read (precondition_failed); nothing was written, current holds the record now.'),
        Unprocessable: problem('A business rule refused the request; see code and resolution.'),
        RateLimited: problem('Rate limit exceeded (rate_limited).', '#/components/schemas/RateLimitedProblem', {
          ...rateLimitHeaders,
          'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
        }),
        InternalError: problem('Unexpected failure (internal_error); nothing about it is disclosed.'),
        ServiceUnavailable: problem('The database is unreachable or the instance is shutting down (service_unavailable); retry after Retry-After seconds.', '#/components/schemas/Problem', {
          'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
        }),
        Problem: problem('Any other failure.'),
      },
    },
  };
}
