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

const SUBSCHEMA = ['items', 'contains', 'not', 'propertyNames', 'if', 'then', 'else', 'additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems', 'contentSchema'];
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'];
/** Keywords that may hold `true` or `false` instead of a schema. */
const MAY_BE_BOOLEAN = new Set(['additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems']);
/** Every keyword that constrains an instance; a schema with none of them admits anything. */
const CONSTRAINING = new Set([
  'type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength',
  'pattern', 'format', 'contentMediaType', 'contentEncoding', 'contentSchema', 'maxItems', 'minItems', 'uniqueItems', 'maxContains',
  'minContains', 'maxProperties', 'minProperties', 'required', 'dependentRequired', 'allOf', 'anyOf', 'oneOf', 'not', 'items',
  'prefixItems', 'contains', 'additionalItems', 'unevaluatedItems', 'properties', 'patternProperties', 'additionalProperties',
  'unevaluatedProperties', 'propertyNames', 'dependentSchemas', 'dependencies', '$ref', '$dynamicRef', '$recursiveRef',
]);

/**
 * What the MCP Inspector's `--strict` schema portability check reports, as `path: problem` lines: a `type`
 * array, a schema with no constraining keyword, a bare boolean where a schema belongs, a `$ref` outside the
 * document. The same rules as the Inspector's schemaLint, so a test can hold tools/list to them.
 */
export function portabilityFindings(schema: unknown, path = '', keyword?: string): string[] {
  if (typeof schema === 'boolean') return keyword !== undefined && MAY_BE_BOOLEAN.has(keyword) ? [] : [`${path}: bare ${schema}`];
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return [];
  const node = schema as JsonSchema;
  const findings: string[] = [];
  if (Array.isArray(node.type)) findings.push(`${path}: type array ${JSON.stringify(node.type)}`);
  if (typeof node.$ref === 'string' && !node.$ref.startsWith('#')) findings.push(`${path}: remote $ref ${node.$ref}`);
  const constrains = Object.keys(node).some((key) => CONSTRAINING.has(key)) || ('if' in node && ('then' in node || 'else' in node));
  if (!constrains && keyword !== 'not') findings.push(`${path}: no constraint`);
  for (const key of SUBSCHEMA_MAPS) {
    for (const [name, child] of Object.entries((node[key] ?? {}) as JsonSchema)) findings.push(...portabilityFindings(child, `${path}.${key}.${name}`, key));
  }
  for (const key of SUBSCHEMA_LISTS) {
    const list = node[key];
    if (Array.isArray(list)) list.forEach((child, index) => findings.push(...portabilityFindings(child, `${path}.${key}[${index}]`, key)));
  }
  for (const key of SUBSCHEMA) {
    if (!(key in node)) continue;
    const child = node[key];
    if (key === 'items' && Array.isArray(child)) child.forEach((item, index) => findings.push(...portabilityFindings(item, `${path}.items[${index}]`, key)));
    else findings.push(...portabilityFindings(child, `${path}.${key}`, key));
  }
  return findings;
}
