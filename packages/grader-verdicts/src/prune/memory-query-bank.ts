import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { sealOf } from '../drift/seal.js';
import { GraderInputError } from '../errors/grader-input-error.js';

const text = z.string().trim().min(1).max(300);

/**
 * One held-out question to the knowledge graph: what the current beliefs about `subject` say
 * for `predicate`, the one answer that counts, and the independent ground truth that answer rests
 * on (a document, a record, the owner's word; never a model's say-so).
 */
export const memoryQuerySchema = z.strictObject({
  id: z.string().min(1).max(200),
  subject: text,
  predicate: text,
  expected: text,
  basis: z.string().max(2_000).optional(),
});
/** See {@link memoryQuerySchema}. */
export type MemoryQuery = z.infer<typeof memoryQuerySchema>;

/** The sealed bank of held-out queries that memory ablation and pruning are measured on. */
export const memoryQueryBankSchema = z
  .strictObject({
    v: z.literal(1),
    queries: z.array(memoryQuerySchema).min(1).max(1_000),
  })
  .refine((bank) => new Set(bank.queries.map((query) => query.id)).size === bank.queries.length, {
    message: 'query ids must be unique',
  });
/** See {@link memoryQueryBankSchema}. */
export type MemoryQueryBank = z.infer<typeof memoryQueryBankSchema>;

/** A query the bank holds but the measurement will not use, and why. */
export interface RefusedQuery {
  readonly id: string;
  readonly reason: string;
}

/** A bank as read: the queries that count, the ones refused, and the seal over the whole bank. */
export interface SealedQueryBank {
  readonly queries: readonly MemoryQuery[];
  readonly refused: readonly RefusedQuery[];
  /** sha256 of the bank's canonical JSON: a plan proved on it names it, and so does applying. */
  readonly seal: string;
}

/**
 * Seals a parsed bank and sets aside every query without an independent basis: a label nothing
 * outside the graph backs cannot be falsified, so it may not vote on what the graph keeps.
 */
export function sealQueryBank(bank: MemoryQueryBank): SealedQueryBank {
  const queries: MemoryQuery[] = [];
  const refused: RefusedQuery[] = [];
  for (const query of bank.queries) {
    if (query.basis === undefined || query.basis.trim() === '') {
      refused.push({
        id: query.id,
        reason: 'refused: no independent basis for the expected answer (unfalsifiable)',
      });
    } else queries.push(query);
  }
  return { queries, refused, seal: sealOf(bank).sha256 };
}

/** Reads and seals a bank file; an unreadable or malformed file is a GraderInputError. */
export function readQueryBank(path: string): SealedQueryBank {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new GraderInputError(path, `the query bank ${path} is not readable JSON`, {
      cause: error,
    });
  }
  const parsed = memoryQueryBankSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new GraderInputError(
      path,
      `the query bank ${path} is not a bank of held-out queries: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim(),
    );
  }
  return sealQueryBank(parsed.data);
}
