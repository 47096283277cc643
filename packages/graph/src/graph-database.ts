import type { Extractor } from './metadata-extractor.js';

/** Which engine a store runs on; the few places their SQL differs ask this. */
export type GraphDialect = 'sqlite' | 'postgres';

/** A value bound to a `?` placeholder. */
export type SqlValue = string | number | null;

/**
 * What every store operation works through: one connection (inside one transaction for a
 * write), a clock and the extractor. SQL uses `?` placeholders on both engines.
 */
export interface GraphDatabase {
  readonly dialect: GraphDialect;
  readonly extractor: Extractor;
  /** The current time as an ISO string; one value per operation. */
  now(): string;
  /** The first row, or undefined. */
  get<T>(text: string, ...parameters: readonly SqlValue[]): Promise<T | undefined>;
  /** Every row. */
  all<T>(text: string, ...parameters: readonly SqlValue[]): Promise<T[]>;
  /** Runs a statement; resolves to the number of rows it changed. */
  run(text: string, ...parameters: readonly SqlValue[]): Promise<number>;
}

/**
 * An open graph database on either engine. A write runs in one transaction that holds the graph's
 * single write lock from its start (no upgrade deadlocks, no lost updates between writers); a
 * read sees one consistent snapshot where the engine offers it.
 */
export interface GraphBackend {
  readonly dialect: GraphDialect;
  /** Where the data lives, fit to print (a connection URL without its password). */
  readonly location: string;
  write<T>(work: (graph: GraphDatabase) => Promise<T>): Promise<T>;
  read<T>(work: (graph: GraphDatabase) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Serialises async work: each call starts after every earlier one has settled. */
export function serialQueue(): <T>(work: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (work) => {
    const next = tail.then(work, work);
    tail = next.catch(() => undefined);
    return next;
  };
}
