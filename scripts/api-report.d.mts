/** The API report of a package: its text, the exported names, and those left undocumented. */
export interface ApiReport {
  readonly text: string;
  readonly names: readonly string[];
  readonly undocumented: readonly string[];
}

/**
 * The API report of the package at `packageDir` (its `tsconfig.json` and `package.json`),
 * read from `entry` (default `src/index.ts`) with the TypeScript compiler.
 */
export function apiReport(packageDir: string, entry?: string): ApiReport;
/** Where the report of the package at `packageDir` is checked in: `api/<name>.api.md`. */
export function reportPath(packageDir: string): string;
