/** One exported name and where outside its package it is imported. */
export interface ExportUse {
  readonly name: string;
  readonly places: readonly string[];
  readonly testOnly: boolean;
  /** Used outside only where the whole module escapes (counted as a use of every name). */
  readonly wholeModuleOnly: boolean;
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
export function importsIn(
  code: string,
  fileName?: string,
  options?: {
    /** The `@mecha/*` module a loader imported from a relative module loads, if it is one. */
    readonly loaderOf?: (specifier: string, name: string) => string | undefined;
  },
): Map<string, Set<string>>;

/** The loaders `code` exports (`export const load = () => import('@mecha/x')`): name → specifier. */
export function exportedLoaders(code: string, fileName?: string): Map<string, string>;

/** The names the module `file` of the package at `packageDir` exports, sorted. */
export function exportedNames(packageDir: string, file: string): string[];

/** The usage table of every package entry under `root` (or only the package at `only`). */
export function exportUsage(options?: {
  readonly root?: string;
  readonly only?: string;
}): EntryUsage[];
