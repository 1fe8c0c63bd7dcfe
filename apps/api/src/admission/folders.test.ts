import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The folders of the API import one way (ARCHITECTURE.md, "Folder imports"): a cycle between
// two of them (http and auth importing each other, say) means neither can be read, tested or
// moved without the other.

const SOURCE = resolve(__dirname, '..');

const sourceFiles = (folder: string): string[] =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      return entry.name === 'test' || entry.name === 'generated' ? [] : sourceFiles(path);
    }
    return /\.ts$/.test(entry.name) && !/\.test(-d)?\.ts$|test-support\.ts$/.test(entry.name)
      ? [path]
      : [];
  });

/** A file's folder as a unit: `auth`, `modules/pets`, or the file itself at the top. */
const unitOf = (file: string): string => {
  const parts = relative(SOURCE, file).split('/');
  if (parts.length === 1) {
    return parts[0]?.replace(/\.ts$/, '') ?? '';
  }
  return parts[0] === 'modules' ? `modules/${parts[1]}` : (parts[0] ?? '');
};

const IMPORT = /^(?:import|export)\s[^;]*?from\s+'(\.{1,2}\/[^']+)'/gms;

/** Which unit imports which, from the relative imports of every source file. */
const importGraph = (): Map<string, Set<string>> => {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(SOURCE)) {
    const from = unitOf(file);
    const targets = graph.get(from) ?? new Set<string>();
    graph.set(from, targets);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const to = unitOf(resolve(dirname(file), `${specifier}.ts`));
      if (to !== from) {
        targets.add(to);
      }
    }
  }
  return graph;
};

/** Every cycle's units, found by a depth-first walk (each reported once, from its first unit). */
const cyclesOf = (graph: Map<string, Set<string>>): string[][] => {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const walk = (unit: string, path: string[]): void => {
    const at = path.indexOf(unit);
    if (at !== -1) {
      cycles.push([...path.slice(at), unit]);
      return;
    }
    if (done.has(unit)) {
      return;
    }
    for (const next of graph.get(unit) ?? []) {
      walk(next, [...path, unit]);
    }
    done.add(unit);
  };
  for (const unit of graph.keys()) {
    walk(unit, []);
  }
  return cycles;
};

describe('the folders of apps/api/src', () => {
  it('import one another without a cycle', () => {
    const cycles = cyclesOf(importGraph()).map((cycle) => cycle.join(' -> '));
    expect(cycles).toEqual([]);
  });

  it('finds a cycle when there is one (the check itself)', () => {
    const graph = new Map([
      ['http', new Set(['auth'])],
      ['auth', new Set(['http'])],
    ]);
    expect(cyclesOf(graph).map((cycle) => cycle.join(' -> '))).toEqual(['http -> auth -> http']);
  });
});
