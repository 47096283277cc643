/** One exported name and where outside its package it is imported. */
export interface ExportUse {
  readonly name: string;
  readonly places: readonly string[];
  readonly testOnly: boolean;
  readonly files: readonly string[];
}

/** One entry point of a package and its exports' uses. */
export interface EntryUsage {
  readonly package: string;
  readonly entry: string;
  readonly dir: string;
  readonly names: readonly ExportUse[];
}

/** The names each `@mecha/*` specifier is imported under in `code` ('*': every name). */
export function importsIn(code: string, fileName?: string): Map<string, Set<string>>;

/** The names the module `file` of the package at `packageDir` exports, sorted. */
export function exportedNames(packageDir: string, file: string): string[];

/** The usage table of every package entry under `root` (or only the package at `only`). */
export function exportUsage(options?: {
  readonly root?: string;
  readonly only?: string;
}): EntryUsage[];
