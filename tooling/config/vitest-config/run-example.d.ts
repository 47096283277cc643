/**
 * Runs `examples/<name>` of the package at `packageRoot` (TypeScript stripped, in a real node
 * process started in that folder) with `env` added, and returns what it printed.
 */
export declare function runExample(
  packageRoot: string,
  name: string,
  env?: Readonly<Record<string, string>>,
): string;
