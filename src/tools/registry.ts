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
import { featureTools } from './features.ts';
import { analyticsTools } from './analytics.ts';
import { customerTools } from './customers.ts';
import { marketingTools } from './marketing.ts';
import { imageTools } from './images.ts';

/**
 * The only list of tools. REST routes, the OpenAPI document and MCP all read it (docs/architecture.md#adding-a-tool-step-by-step). These are every
 * shop's; toolsFor in app.ts adds those of the features a configuration switches on.
 */
export const ALL_TOOLS: readonly AnyTool[] = [
  ...productTools, ...categoryTools, ...discountTools, ...cartTools, ...orderTools, ...auditTools, ...pageTools, ...serviceTools, ...siteTools, ...settingsTools, ...featureTools, ...analyticsTools, ...customerTools, ...marketingTools, ...imageTools,
];

export type JsonSchema = Record<string, unknown>;

export type RegisteredTool = AnyTool & {
  /** JSON Schema 2020-12 of the request body, computed once; used by OpenAPI and MCP alike. */
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

export function buildRegistry(tools: readonly AnyTool[] = ALL_TOOLS): Registry {
  const registered = tools.map((tool) => ({
    ...tool,
    inputJsonSchema: toJsonSchema(tool.input, 'input'),
    outputJsonSchema: toJsonSchema(tool.output, 'output'),
  }));
  const byName = new Map(registered.map((tool) => [tool.name, tool]));
  if (byName.size !== registered.length) throw new Error('two tools share a name');
  return { tools: registered, get: (name) => byName.get(name) };
}
