import type { contributionTable, LabelRule, reachability, reachabilityLine } from '../src/index.js';

/** The part of the package the docs are generated from. */
export interface DocsApi {
  readonly contributionTable: typeof contributionTable;
  readonly labelRules: readonly LabelRule[];
  readonly reachability: typeof reachability;
  readonly reachabilityLine: typeof reachabilityLine;
}

/** The contributions section: every signing row, then every row that signs nothing. */
export function contributionsSection(api: DocsApi): string;
/** The label rules, in the order `deriveLabel` tries them. */
export function labelRulesSection(api: DocsApi): string;
/** The reachability table and the readout's line. */
export function reachabilitySection(api: DocsApi): string;
/** Replaces each generated section of the document between its markers. */
export function renderDocument(document: string, api: DocsApi): string;
