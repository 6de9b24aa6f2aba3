import type { JsonSchema } from '../../src/tools/registry.ts';

/** Every named property of a JSON Schema with its dotted path, through arrays, unions and nested objects. */
export function* properties(schema: JsonSchema, path = ''): Generator<[string, JsonSchema]> {
  for (const [name, value] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
    yield [`${path}${name}`, value];
    yield* properties(value, `${path}${name}.`);
  }
  for (const key of ['items', 'anyOf', 'oneOf', 'allOf'] as const) {
    const nested = schema[key];
    for (const member of (Array.isArray(nested) ? nested : nested ? [nested] : []) as JsonSchema[]) yield* properties(member, path);
  }
}
