type JsonSchema = Record<string, unknown>;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
/**
 * Keywords an agent does not need to build a valid call: the server validates every input with the full
 * schema and names the field and the bound it broke. OpenAPI keeps them all.
 */
const INPUT_NOISE = new Set(['$schema', 'propertyNames', 'minLength', 'maxLength', 'minItems', 'maxItems', 'examples']);
/** What an output schema keeps for MCP: the shape, which clients validate structuredContent against. */
const OUTPUT_SHAPE = new Set(['type', 'properties', 'required', 'items', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', '$ref', '$defs']);
/** The length of a reference to a shared subschema, `{"$ref":"#/$defs/s12"}`, and of its `"s12":` entry. */
const REF_CHARS = 22;
const DEF_NAME_CHARS = 6;

/** Whether writing a subtree once under $defs and referring to it makes the schema shorter. */
function worthSharing(chars: number, occurrences: number): boolean {
  return occurrences > 1 && occurrences * (chars - REF_CHARS) > chars + DEF_NAME_CHARS;
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function prune(node: unknown, keep: (key: string, value: unknown, schema: JsonSchema) => boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => prune(item, keep));
  if (!isSchema(node)) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' || key === '$defs') {
      // Names of properties are data, not keywords: never pruned, their schemas are.
      out[key] = isSchema(value) ? Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, prune(schema, keep)])) : value;
    } else if (keep(key, value, node)) {
      out[key] = prune(value, keep);
    }
  }
  return out;
}

function keepInInput(key: string, value: unknown, schema: JsonSchema): boolean {
  if (INPUT_NOISE.has(key)) return false;
  if (key === 'additionalProperties' && value === false) return false;
  // zod writes both `format` and the regex that implements it (280 characters for a date-time).
  if (key === 'pattern' && schema.format !== undefined) return false;
  // z.int() bounds every integer by ±(2^53 − 1): the JSON number range itself, so it says nothing.
  return !((key === 'minimum' && value === -MAX_SAFE) || (key === 'maximum' && value === MAX_SAFE));
}

function keepInOutput(key: string): boolean {
  return OUTPUT_SHAPE.has(key);
}

/** Keywords whose value is a map from names to schemas: the map itself is never a schema to share. */
const SCHEMA_MAPS = new Set(['properties', '$defs', 'patternProperties']);

/** Applies `visit` to every schema below `node`, leaving name maps and arrays as they are. */
function mapChildren(node: JsonSchema, visit: (schema: unknown) => unknown): JsonSchema {
  return Object.fromEntries(Object.entries(node).map(([key, value]) => {
    if (SCHEMA_MAPS.has(key) && isSchema(value)) {
      return [key, Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, visit(schema)]))];
    }
    return [key, Array.isArray(value) ? value.map(visit) : visit(value)];
  }));
}

/**
 * Writes every repeated subschema once, under `$defs`, and refers to it wherever that makes the schema shorter
 * (a page layout's section union appears again inside its columns; an order's twenty nullable strings).
 * Existing `$defs` are left as they are.
 */
function shareRepeats(schema: JsonSchema): JsonSchema {
  const seen = new Map<string, number>();
  const count = (node: unknown): unknown => {
    if (!isSchema(node)) return node;
    const text = JSON.stringify(node);
    seen.set(text, (seen.get(text) ?? 0) + 1);
    return mapChildren(node, count);
  };
  mapChildren(schema, count);
  const defs = new Map<string, string>();
  const replace = (node: unknown): unknown => {
    if (!isSchema(node)) return node;
    const text = JSON.stringify(node);
    if (!worthSharing(text.length, seen.get(text) ?? 0)) return mapChildren(node, replace);
    let name = defs.get(text);
    if (name === undefined) {
      name = `s${defs.size + 1}`;
      defs.set(text, name);
    }
    return { $ref: `#/$defs/${name}` };
  };
  const body = mapChildren(schema, replace);
  if (defs.size === 0) return schema;
  // A shared subschema may hold smaller shared ones; only its own root stays written out.
  const shared: JsonSchema = {};
  // Writing one out may name further shared subschemas; a Map's iterator visits those too.
  for (const [text, name] of defs) shared[name] = mapChildren(JSON.parse(text), replace);
  const existing = isSchema(schema.$defs) ? schema.$defs : {};
  return { ...body, $defs: { ...existing, ...shared } };
}

/** Keywords whose value may be `true` in place of the schema that admits anything. */
const MAY_BE_TRUE = new Set(['additionalProperties', 'unevaluatedProperties']);
/** Keywords whose value is data, not a schema: left exactly as they are. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);

function portableChild(value: unknown): unknown {
  return isSchema(value) ? portableSchema(value) : value;
}

/**
 * A schema every client can read, as the MCP Inspector's strict portability check wants it: one `type` per
 * schema (a type array, which several model providers reject, becomes `anyOf` branches of one type each; the
 * other keywords stay, each applies only to its own type anyway), and no empty schema where one admits
 * anything: `additionalProperties: {}` is written `true`, `items: {}` left out.
 */
export function portableSchema(schema: JsonSchema): JsonSchema {
  const node: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DATA_KEYWORDS.has(key)) node[key] = value;
    else if (SCHEMA_MAPS.has(key) && isSchema(value)) node[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, portableChild(child)]));
    else if (isSchema(value) && Object.keys(value).length === 0 && (MAY_BE_TRUE.has(key) || key === 'items')) {
      if (MAY_BE_TRUE.has(key)) node[key] = true;
    } else node[key] = Array.isArray(value) ? value.map(portableChild) : portableChild(value);
  }
  const { type, ...rest } = node;
  if (!Array.isArray(type)) return node;
  const branches = type.map((member: unknown) => ({ type: member }));
  if (rest.anyOf === undefined) return { ...rest, anyOf: branches };
  return { ...rest, allOf: [...(Array.isArray(rest.allOf) ? rest.allOf : []), { anyOf: branches }] };
}

/**
 * The MCP form of a tool's input schema: what a caller needs, nothing twice (docs/behaviour.md#the-tool-list). The complete
 * example calls at the root stay; field-level examples go, the field descriptions say enough.
 */
export function leanInputSchema(schema: JsonSchema): JsonSchema {
  const pruned = prune(schema, keepInInput);
  const lean = shareRepeats(portableSchema(isSchema(pruned) ? pruned : {}));
  return Array.isArray(schema.examples) ? { ...lean, examples: schema.examples } : lean;
}

/** The MCP form of a tool's output schema: its shape, without descriptions and bounds (OpenAPI has them). */
export function leanOutputSchema(schema: JsonSchema): JsonSchema {
  const pruned = prune(schema, keepInOutput);
  return shareRepeats(portableSchema(isSchema(pruned) ? pruned : {}));
}
