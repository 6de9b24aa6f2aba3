import { z } from 'zod';
import type { AnyTool } from './define-tool.ts';
import { productTools } from './products.ts';
import { categoryTools } from './categories.ts';
import { discountTools } from './discounts.ts';
import { cartTools } from './carts.ts';
import { orderTools } from './orders.ts';
import { auditTools } from './audit.ts';
import { pageTools } from './pages.ts';
import { serviceTools } from './services.ts';
import { siteTools } from './site.ts';
import { settingsTools } from './settings.ts';
import { shippingTools } from './shipping.ts';
import { featureTools } from './features.ts';
import { analyticsTools } from './analytics.ts';
import { customerTools } from './customers.ts';
import { marketingTools } from './marketing.ts';
import { imageTools } from './images.ts';
import { approvalTools } from './approvals.ts';

/**
 * The only list of tools. REST routes, the OpenAPI document and MCP all read it (docs/architecture.md#adding-a-tool-step-by-step). These are every
 * shop's; toolsFor in app.ts adds those of the features a configuration switches on.
 */
export const ALL_TOOLS: readonly AnyTool[] = [
  ...productTools, ...categoryTools, ...discountTools, ...cartTools, ...orderTools, ...auditTools, ...pageTools, ...serviceTools, ...siteTools, ...settingsTools, ...shippingTools, ...featureTools, ...analyticsTools, ...customerTools, ...marketingTools, ...imageTools, ...approvalTools,
];

export type JsonSchema = Record<string, unknown>;

export type RegisteredTool = AnyTool & {
  /** JSON Schema 2020-12 of the request body, computed once when first read; used by OpenAPI and MCP alike. */
  inputJsonSchema: JsonSchema;
  /** JSON Schema 2020-12 of the result. */
  outputJsonSchema: JsonSchema;
};

export type Registry = {
  tools: readonly RegisteredTool[];
  get(name: string): RegisteredTool | undefined;
};

export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' });
  return rest;
}

/**
 * The JSON Schemas are computed on first use and kept: only the OpenAPI document and MCP's tool list read them,
 * and converting every tool's schemas at start cost about 50 ms of every start, before either was asked for.
 */
function registered(tool: AnyTool): RegisteredTool {
  let input: JsonSchema | undefined;
  let output: JsonSchema | undefined;
  return {
    ...tool,
    get inputJsonSchema() { return (input ??= toJsonSchema(tool.input, 'input')); },
    get outputJsonSchema() { return (output ??= toJsonSchema(tool.output, 'output')); },
  };
}

export function buildRegistry(tools: readonly AnyTool[] = ALL_TOOLS): Registry {
  const entries = tools.map(registered);
  const byName = new Map(entries.map((tool) => [tool.name, tool]));
  if (byName.size !== entries.length) throw new Error('two tools share a name');
  return { tools: entries, get: (name) => byName.get(name) };
}
