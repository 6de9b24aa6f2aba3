import type { FastifyPluginAsync } from 'fastify';
import type { Gate } from './access/admit.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { ToolRuntime } from './tools/invoke.ts';
import type { Registry } from './tools/registry.ts';

/** OpenAPI routes beyond the tools that a configuration switches on (UCP's), with their tag and schemas. */
export type OpenApiExtension = {
  paths: Record<string, unknown>;
  tag: { name: string; description: string };
  schemas: Record<string, unknown>;
  /** Scopes the extension's routes check, listed after the tools' in x-service-supported-scopes. */
  scopes?: string[];
};

/** What the routes are built from; app.ts assembles it once and hands it to every route plugin. */
export type AppDeps = {
  config: Config;
  database: Database;
  registry: Registry;
  runtime: ToolRuntime;
  gate: Gate;
  /** The OpenAPI paths of features the configuration switches on (UCP), beside the tools'. */
  openApiExtension?: OpenApiExtension;
  /** The public base address; fixed once the port is known (BASE_URL, docs/behaviour.md#running-it). */
  readonly baseUrl: string;
};

/** A route plugin: Fastify encapsulates it, and it reads everything it needs from its options. */
export type RoutePlugin = FastifyPluginAsync<{ deps: AppDeps }>;
