import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const UCP = fileURLToPath(new URL('../../src/ucp/', import.meta.url));

/** Every TypeScript file under src/ucp, relative to it. */
function ucpFiles(dir = UCP): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ucpFiles(full);
    return entry.name.endsWith('.ts') ? [path.relative(UCP, full)] : [];
  });
}

/**
 * The files under src/ucp a file imports, type-only imports included: a type import ties the rooms together as
 * much as a value import does, it is only erased later.
 */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(UCP, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|import\(\s*)'(\.{1,2}\/[^']+)'/g)].map((match) => match[1]!);
  return specifiers
    .map((specifier) => path.relative(UCP, path.resolve(path.dirname(path.join(UCP, file)), specifier)))
    .filter((target) => !target.startsWith('..'));
}

/** The room a file lives in: its sub-folder, or '.' for the files at the top of src/ucp. */
const roomOf = (file: string) => (file.includes(path.sep) ? file.split(path.sep)[0]! : '.');

/** The cycles of a directed graph, each as the path that closes it (a → b → a). */
function cycles(edges: Map<string, Set<string>>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const walk = (node: string, trail: string[]) => {
    state.set(node, 'open');
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...trail.slice(trail.indexOf(next)), node, next]);
      else if (!state.has(next)) walk(next, [...trail, node]);
    }
    state.set(node, 'done');
  };
  for (const node of edges.keys()) if (!state.has(node)) walk(node, []);
  return found;
}

function graph(nodeOf: (file: string) => string): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const file of ucpFiles()) {
    const from = nodeOf(file);
    const targets = edges.get(from) ?? new Set<string>();
    for (const target of importsOf(file)) if (nodeOf(target) !== from) targets.add(nodeOf(target));
    edges.set(from, targets);
  }
  return edges;
}

describe('the rooms of src/ucp', () => {
  it('finds the imports it checks (the scan is not blind)', () => {
    expect(importsOf(path.join('checkout', 'complete.ts'))).toContain(path.join('checkout', 'sessions.ts'));
    expect(graph(roomOf).get('.')).toContain('checkout');
  });

  it('import one another without a cycle: a room uses the rooms below it, never one that uses it back', () => {
    expect(cycles(graph(roomOf))).toEqual([]);
  });

  it('have no cycle between files either, so each file can be read after the files it imports', () => {
    expect(cycles(graph((file) => file))).toEqual([]);
  });

  it('keep the top of src/ucp for the face, its bindings, the dispatchers, the profile and negotiation', () => {
    expect(ucpFiles().filter((file) => roomOf(file) === '.').length).toBeLessThanOrEqual(15);
  });
});
