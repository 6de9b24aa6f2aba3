import { describe, expect, it } from 'vitest';
import { buildMcpCatalog } from '../../src/mcp/tool-catalog.ts';
import { toolsFor } from '../../src/app.ts';
import { buildRegistry } from '../../src/tools/registry.ts';
import { UCP_TOOL_LISTING } from '../../src/ucp/mcp/mcp-tools.ts';
import { SHOPPING_TOOL_LISTING } from '../../src/ucp/mcp/shopping-mcp.ts';
import { portabilityFindings } from '../helpers/json-schema.ts';

/** Every tool either MCP endpoint lists, webhook tools included (they exist when UCP is on). */
const LISTED = [...buildMcpCatalog(buildRegistry(toolsFor('test'))).tools.map((entry) => entry.listing), ...UCP_TOOL_LISTING, ...SHOPPING_TOOL_LISTING];

describe('tools/list schemas every client can read (the Inspector\'s --strict check)', () => {
  it.each(LISTED.map((tool) => [tool.name, tool] as const))('%s has no type array, no unconstrained schema and no remote $ref', (_name, tool) => {
    expect([
      ...portabilityFindings(tool.inputSchema, 'inputSchema'),
      ...portabilityFindings(tool.outputSchema ?? {}, 'outputSchema'),
    ]).toEqual([]);
  });

  it('finds what the check looks for, so a clean list means something', () => {
    expect(portabilityFindings({ type: 'object', properties: { a: { type: ['string', 'null'] }, b: {}, c: { description: 'free' } } }, 's')).toEqual([
      's.properties.a: type array ["string","null"]',
      's.properties.b: no constraint',
      's.properties.c: no constraint',
    ]);
  });
});
