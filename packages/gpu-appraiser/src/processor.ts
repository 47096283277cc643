import { createHash } from 'node:crypto';
import { buildInterpretationGrammar } from './interpretation-grammar.js';
import { parserVersion } from './parse-interpretation.js';
import { buildQuoteGrammar } from './quote-grammar.js';

/** The version of the grammar builders; part of the processor digest. */
export const grammarVersion = 1;

// Inputs that exercise every branch of both builders: any change to either grammar's rules
// changes the grammars built for them, and with them the digest.
const probeSource = 'He said "I will fix the login task" and fixed\tit; fixed it.';
const probeQuotes = ['I will fix the login task', 'fixed\tit'];

/**
 * The processor digest: the sha256 of the response contract, that is both grammars (as built
 * for a fixed probe covering every branch) and the parser's version. A recorded result names
 * the processor it was produced under; one naming any other digest is refused.
 */
export function processorDigest(): string {
  const hash = createHash('sha256');
  hash.update(`mecha.appraiser.processor\0grammar ${grammarVersion}\0parser ${parserVersion}\0`);
  hash.update(buildQuoteGrammar(probeSource));
  for (const [taskDescriptor, correctionAllowed] of [
    [undefined, false],
    ['I will fix the login task', true],
  ] as const) {
    hash.update('\0');
    hash.update(
      buildInterpretationGrammar({
        quotes: probeQuotes,
        correctionAllowed,
        ...(taskDescriptor === undefined ? {} : { taskDescriptor }),
      }),
    );
  }
  return hash.digest('hex');
}

/** The processor new work is bound to. */
export const currentProcessor = processorDigest();

/**
 * The previous processor (schema 1 results, no task, commitment or correction fields): its
 * results stay readable under this identity, and its queued work stays bound to it.
 */
export const previousProcessor = createHash('sha256')
  .update('mecha.appraiser.processor\0schema 1')
  .digest('hex');

/** Whether results recorded under `processor` may be read. */
export function isKnownProcessor(processor: string): boolean {
  return processor === currentProcessor || processor === previousProcessor;
}
