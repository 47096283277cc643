import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The source modules (tests and fixtures left out) and the relative imports between them.
const root = dirname(fileURLToPath(import.meta.url));

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === '__fixtures__' ? [] : sources(path);
    return /\.ts$/.test(entry.name) && !/\.test(-d)?\.ts$/.test(entry.name) ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/from\s+'(\.{1,2}\/[^']+)\.js'/g)].map((match) =>
    resolve(dirname(file), `${match[1]}.ts`),
  );
}

/** Every import circle in a graph of modules, each as a list of paths from `src/`. */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const visit = (file: string, path: string[]): void => {
    const at = path.indexOf(file);
    if (at >= 0) {
      found.push(path.slice(at).map((entry) => relative(root, entry)));
      return;
    }
    if (done.has(file)) return;
    for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
    done.add(file);
  };
  for (const file of graph.keys()) visit(file, []);
  return found;
}

describe('the import graph', () => {
  it('has no circle: a concept imports only concepts it builds on', () => {
    const files = sources(root);
    expect(circles(new Map(files.map((file) => [file, importsOf(file)])))).toEqual([]);
  });

  it('reports a circle when two modules import each other', () => {
    const a = join(root, 'a.ts');
    const b = join(root, 'b.ts');
    const c = join(root, 'c.ts');
    expect(
      circles(
        new Map([
          [a, [b]],
          [b, [c]],
          [c, [a]],
        ]),
      ),
    ).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(
      circles(
        new Map([
          [a, [b]],
          [b, []],
        ]),
      ),
    ).toEqual([]);
  });
});
