import { describe, expect, it } from 'vitest';
import { toolsFor } from '../../src/app.ts';
import { buildRegistry } from '../../src/tools/registry.ts';
import type { JsonSchema } from '../../src/tools/registry.ts';
import { properties } from '../helpers/json-schema.ts';

const tools = buildRegistry(toolsFor('live')).tools.map((tool) => [tool.name, tool] as const);

/** A nullable field is `anyOf: [schema, {type: null}]`; its description sits on the schema member. */
function describedBy(field: JsonSchema): unknown {
  const members = (field.anyOf ?? []) as JsonSchema[];
  return field.description ?? members.map((member) => member.description).find((text) => text !== undefined);
}

describe('what an agent reads before calling a tool', () => {
  it.each(tools)('%s describes every input field, nested ones too', (_name, tool) => {
    const undescribed = [...properties(tool.inputJsonSchema)]
      .filter(([, field]) => typeof describedBy(field) !== 'string' || String(describedBy(field)).length < 8)
      .map(([path]) => path);
    expect(undescribed).toEqual([]);
  });

  it.each(tools)('%s offers at least one complete example input that it accepts', (_name, tool) => {
    const examples = tool.inputJsonSchema.examples;
    expect(Array.isArray(examples) && examples.length > 0).toBe(true);
    for (const example of examples as unknown[]) {
      const parsed = tool.input.safeParse(example);
      expect(parsed.success, `${JSON.stringify(example)}: ${parsed.error?.message}`).toBe(true);
    }
  });
});
