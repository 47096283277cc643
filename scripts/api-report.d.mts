/** One entry point of a package: its export-map key, built declarations and checked-in report. */
export interface EntryPoint {
  readonly subpath: string;
  readonly declarations: string;
  readonly report: string;
}

/** The report of one entry point: generated text, what is checked in (`''` if nothing), messages. */
export interface EntryReport {
  readonly subpath: string;
  readonly path: string;
  readonly text: string;
  readonly current: string;
  readonly messages: readonly string[];
}

/** The entry points of the package at `packageDir` (its export map's keys with declarations). */
export function entryPoints(packageDir: string): EntryPoint[];

/** One entry's API Extractor report, generated from the built declarations into a scratch folder. */
export function entryReport(
  packageDir: string,
  entry: EntryPoint,
): { readonly text: string; readonly messages: readonly string[] };

/** The reports of every entry point of the package at `packageDir`, with what is checked in. */
export function apiReports(packageDir: string): EntryReport[];

/** The top-level exports a report marks `// (undocumented)`, sorted. */
export function undocumentedExports(text: string): string[];
/** Sorts each run of `name: "name";` lines (an enum record's members) in a report's text. */
export function enumMembersSorted(text: string): string;
