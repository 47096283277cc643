import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin } from './helpers.js';

// A static import in esbuild's output: `import{a as b}from"./chunk.js"` or `import"./chunk.js"`.
// A dynamic `import("./chunk.js")` is not one: it is loaded only when that code runs.
const staticImport = /(?:^|[;\n}])\s*import\s*(?:\{[^}]*\}\s*from\s*)?"(\.\/[^"]+)"/g;

/** Every file of the bundle that Node loads before the first line of `bin.js` runs. */
function startupFiles(entry: string): string[] {
  const seen = new Set<string>([entry]);
  const queue = [entry];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    for (const match of readFileSync(file, 'utf8').matchAll(staticImport)) {
      const next = join(dirname(file), match[1] as string);
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return [...seen];
}

describe('what `mecha --version` and `--help` load', () => {
  // The start-up time itself is measured in `bench cli` (paired runs against `node -e 0`); this
  // checks its cause, with no clock: the entry loads the command registry, the option parser
  // and the version, while every command group and the appraisal core wait until named.
  it('statically loads under 32 KB of the bundle, and no command group', () => {
    const files = startupFiles(bin);
    const bytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
    expect(bytes).toBeLessThan(32 * 1024);
    const loaded = files.map((file) => file.slice(dirname(bin).length + 1));
    for (const group of ['sessions', 'verdicts', 'tasks', 'charter', 'demo', 'distill']) {
      expect(loaded.some((name) => name.startsWith(`${group}-`))).toBe(false);
    }
  });
});
