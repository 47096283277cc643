/** One layer: its name, its packages and what they are for. */
export interface Layer {
  readonly name: string;
  readonly packages: readonly string[];
  readonly what: string;
}

/** An import edge between two workspace packages, with the files in code and in tests. */
export interface LayerEdge {
  readonly from: string;
  readonly to: string;
  readonly code: ReadonlySet<string>;
  readonly tests: ReadonlySet<string>;
}

/** The layers, lowest first. */
export const layers: readonly Layer[];

/** Files allowed to reach into another package by a relative path, with why. */
export const relativeReachExceptions: ReadonlyMap<string, string>;

interface LayerOptions {
  readonly root?: string;
  readonly table?: readonly Layer[];
  readonly exceptions?: ReadonlyMap<string, string>;
}

/** The import edges of the workspace at `root` and every violation of the layer rules. */
export function layerGraph(options?: LayerOptions): {
  readonly edges: readonly LayerEdge[];
  readonly violations: readonly string[];
};

/** The generated block of docs/ARCHITECTURE.md. */
export function layerBlock(options?: LayerOptions): string;

/** `text` with its generated layers block replaced by `block`. */
export function withBlock(text: string, block: string): string;
