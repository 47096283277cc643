/** The most lines a source file may have, but for the allowed tables. */
export const maxFileLines: number;
/** The most lines a function may have. */
export const maxFunctionLines: number;

/** Files allowed over the file limit (declarative tables), with why. */
export const allowedFiles: ReadonlyMap<string, string>;
/** Functions allowed over the function limit, keyed `path: name`, with why. */
export const allowedFunctions: ReadonlyMap<string, string>;

/** One function: its name as the check prints it, its first line and its length in lines. */
export interface FunctionSize {
  readonly name: string;
  readonly line: number;
  readonly lines: number;
}

/** The non-test source files under packages/ and apps/ at `root`, relative, with `/`. */
export function sourceFiles(root?: string): string[];

/** Every function with a body in `text` (the file at `path`). */
export function functionSizes(path: string, text: string): FunctionSize[];

interface SizeOptions {
  readonly root?: string;
  readonly files?: ReadonlyMap<string, string>;
  readonly functions?: ReadonlyMap<string, string>;
}

/** The sizes of the source files and functions at `root` and every breach of the rule. */
export function sourceSizes(options?: SizeOptions): {
  readonly files: readonly { readonly path: string; readonly lines: number }[];
  readonly functions: readonly (FunctionSize & { readonly path: string })[];
  readonly violations: readonly string[];
};
