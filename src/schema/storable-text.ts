import type { FieldError } from '../errors/tool-error.ts';

/**
 * PostgreSQL stores neither a NUL character (text and jsonb refuse it) nor half of a UTF-16 surrogate pair
 * (the driver would silently turn it into U+FFFD, jsonb refuses its escape). No tool field means either, so
 * every string of every input — values and object keys, JSON-typed fields included — is checked once here,
 * before any tool schema, and each offender is reported at its own path.
 */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether PostgreSQL can store (and so compare) this string at all. */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

export function unstorableTextErrors(input: unknown): FieldError[] {
  const errors: FieldError[] = [];
  // An explicit stack: the walk must not recurse over client-controlled nesting.
  const pending: Array<{ value: unknown; path: string }> = [{ value: input, path: '' }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === 'string') {
      if (UNSTORABLE.test(value)) errors.push({ path, message: describe(value) });
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => pending.push({ value: item, path: join(path, String(index)) }));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        const at = join(path, key);
        if (UNSTORABLE.test(key)) errors.push({ path: at, message: `the key ${describe(key)}` });
        pending.push({ value: item, path: at });
      }
    }
  }
  return errors.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function describe(text: string): string {
  return text.includes('\u0000')
    ? 'contains a NUL character (\\u0000), which cannot be stored; remove it'
    : 'contains a lone UTF-16 surrogate (half of a character), which cannot be stored; send well-formed Unicode';
}

function join(path: string, segment: string): string {
  return path === '' ? segment : `${path}.${segment}`;
}
