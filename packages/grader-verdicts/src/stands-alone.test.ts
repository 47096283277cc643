import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// docs/ARCHITECTURE.md: `graph` and `grader-verdicts` stand alone. This package reaches the
// knowledge graph only through its own port (src/prune/graph-port.ts); the caller passes the
// graph in. These checks keep it so: they read package.json and the shipped sources as they are.

const root = fileURLToPath(new URL('..', import.meta.url));
const allowedMecha = new Set(['@mecha/errors']);

interface Manifest {
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
}

/** Every module a source file loads: static and dynamic imports, re-exports, require(). */
function importsOf(fileName: string, text: string): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node)) {
      const [first] = node.arguments;
      const loads =
        node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require');
      if (loads && first !== undefined && ts.isStringLiteralLike(first)) found.push(first.text);
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      if (ts.isLiteralTypeNode(argument) && ts.isStringLiteral(argument.literal))
        found.push(argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`); null for relative and node: ones. */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('node:')) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? null);
}

/**
 * What breaks the rule: a runtime dependency on another @mecha package, or a shipped source
 * that loads a package which is not a runtime dependency (a devDependency such as @mecha/graph
 * would be missing for users) or another @mecha package at all.
 */
function standAloneViolations(
  manifest: Manifest,
  sources: readonly { readonly path: string; readonly text: string }[],
): string[] {
  const runtime = {
    ...manifest.dependencies,
    ...manifest.peerDependencies,
    ...manifest.optionalDependencies,
  };
  const violations: string[] = [];
  for (const name of Object.keys(runtime).sort()) {
    if (name.startsWith('@mecha/') && !allowedMecha.has(name))
      violations.push(`package.json: runtime dependency on ${name}`);
  }
  for (const source of sources) {
    for (const specifier of importsOf(source.path, source.text)) {
      const name = packageOf(specifier);
      if (name === null) continue;
      if (name.startsWith('@mecha/') && !allowedMecha.has(name))
        violations.push(`${source.path}: imports ${specifier}`);
      else if (!(name in runtime))
        violations.push(`${source.path}: imports ${specifier}, not a runtime dependency`);
    }
  }
  return violations;
}

/** The sources that ship: everything under src but tests and fixtures. */
function shippedSources(): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '__fixtures__') walk(path);
      } else if (/\.[cm]?tsx?$/.test(entry.name) && !/\.test(?:-d)?\.[cm]?tsx?$/.test(entry.name)) {
        out.push({ path: relative(root, path), text: readFileSync(path, 'utf8') });
      }
    }
  };
  walk(join(root, 'src'));
  return out.sort((left, right) => left.path.localeCompare(right.path));
}

describe('@mecha/grader-verdicts stands alone', () => {
  it('depends at runtime on no @mecha package but @mecha/errors, and its sources load only runtime dependencies', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
    const sources = shippedSources();
    expect(sources.map((source) => source.path)).toContain('src/prune/graph-memory.ts');
    expect(standAloneViolations(manifest, sources)).toEqual([]);
  });

  it('would catch a runtime dependency on the graph and an import of it, however written', () => {
    const manifest: Manifest = {
      dependencies: { '@mecha/errors': 'workspace:*', '@mecha/graph': 'workspace:*', zod: '4' },
      optionalDependencies: { '@mecha/stores': 'workspace:*' },
    };
    const sources = [
      { path: 'a.ts', text: "import { openGraphStore } from '@mecha/graph';" },
      { path: 'b.ts', text: "const m = () => import('@mecha/graph');" },
      { path: 'c.ts', text: "export type { GraphStore } from '@mecha/graph';" },
      { path: 'd.ts', text: "type S = import('@mecha/graph').GraphStore;" },
      { path: 'e.ts', text: "const D = require('better-sqlite3');" },
      {
        path: 'f.ts',
        text: "import { z } from 'zod';\nimport { x } from './x.js';\nimport { MechaError } from '@mecha/errors';\nconst code = \"import g from '@mecha/graph'\";",
      },
    ];
    expect(standAloneViolations(manifest, sources)).toEqual([
      'package.json: runtime dependency on @mecha/graph',
      'package.json: runtime dependency on @mecha/stores',
      'a.ts: imports @mecha/graph',
      'b.ts: imports @mecha/graph',
      'c.ts: imports @mecha/graph',
      'd.ts: imports @mecha/graph',
      'e.ts: imports better-sqlite3, not a runtime dependency',
    ]);
  });
});
