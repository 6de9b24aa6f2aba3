import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toolsFor } from '../../src/app.ts';
import { ALL_TOOLS, buildRegistry } from '../../src/tools/registry.ts';

const TOOL_MODULES = readdirSync(new URL('../../src/tools/', import.meta.url)).map((file) => new URL(`../../src/tools/${file}`, import.meta.url));

function isTool(value: unknown): value is { name: string } {
  return typeof value === 'object' && value !== null && 'name' in value && 'handler' in value && 'input' in value
    && typeof value.name === 'string';
}

/** Every tool any module under src/tools exports or builds, found by looking, not by a list that could forget one. */
async function exportedTools(): Promise<Set<string>> {
  const names = new Set<string>();
  for (const file of TOOL_MODULES.filter((url) => url.pathname.endsWith('.ts'))) {
    const module: Record<string, unknown> = await import(file.href);
    // A family of tools built over a face's functions (webhookTools over the UCP outbox) is looked into too; its
    // handlers are never called here.
    const built = Object.entries(module).filter(([name, value]) => name.endsWith('Tools') && typeof value === 'function')
      .map(([, factory]) => (factory as (face: unknown) => unknown)({}));
    for (const value of [...Object.values(module), ...built]) {
      for (const item of Array.isArray(value) ? value : [value]) if (isTool(item)) names.add(item.name);
    }
  }
  return names;
}

describe('the tool registry', () => {
  it('registers every tool that a module under src/tools or the UCP webhook tools export, and nothing else', async () => {
    const registered = toolsFor('live').map((tool) => tool.name).sort();
    expect(registered).toEqual([...await exportedTools()].sort());
    expect(registered).toHaveLength(60);
  });

  it('adds the UCP webhook tools only while UCP is on', () => {
    expect(ALL_TOOLS).toHaveLength(58);
    expect(toolsFor('off')).toBe(ALL_TOOLS);
    expect(toolsFor('test').map((tool) => tool.name).slice(58)).toEqual(['webhooks.list', 'webhooks.retry']);
  });

  it('refuses two tools with one name', () => {
    const [first] = ALL_TOOLS;
    if (!first) throw new Error('no tools');
    expect(() => buildRegistry([first, { ...first }])).toThrow(/two tools share a name/);
  });
});
