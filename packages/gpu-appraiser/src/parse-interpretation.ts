import { couldNotRead, readValue, type ValueRead } from '@mecha/errors';
import { isExplicitPromise } from './explicit-promise.js';
import {
  consequenceMax,
  dimensionFields,
  hasKnownInterpretation,
  type Interpretation,
  interpretationFields,
  scaleMax,
  unknownValue,
} from './interpretation.js';

/** The version of the rules below; part of the processor digest. */
export const parserVersion = 2;

/** What call 2's answer is checked against. */
export interface InterpretationCheck {
  readonly source: string;
  /** Call 1's accepted quotes. */
  readonly quotes: readonly string[];
  /** The admitted task id, if any. */
  readonly taskId?: string;
  /** The task's authored descriptor, if the task was admitted with one. */
  readonly taskDescriptor?: string;
  /** How many eligible assessments the correction context held. */
  readonly correctionTargets: number;
}

const refuse = couldNotRead;

function occurrences(source: string, part: string): number {
  let count = 0;
  for (let at = source.indexOf(part); at !== -1; at = source.indexOf(part, at + 1)) count += 1;
  return count;
}

/**
 * Re-checks call 2's answer against every rule of the response contract, independently of the
 * grammar that produced it, and refuses anything else with the reason: the fourteen fields in
 * order and nothing more; ranges; support 0 only with everything unknown and empty; support 1
 * only with a known interpretation and evidence; quotes only from call 1; known task trust only
 * with an admitted task whose exact descriptor occurs once in the source and is the task quote;
 * a commitment only from a quote stating a promise; a correction only with support, evidence and
 * something eligible to correct.
 */
export function parseInterpretation(
  text: string,
  check: InterpretationCheck,
): ValueRead<Interpretation> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse('call 2 did not return JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return refuse('call 2 did not return an object');
  }
  const record = value as Record<string, unknown>;
  if (Object.keys(record).join() !== interpretationFields.join()) {
    return refuse('call 2 does not have exactly the fourteen fields in order');
  }
  if (JSON.stringify(record) !== text) return refuse('call 2 is not in the one JSON spelling');
  const { support, correction, evidence, task, commitment } = record;
  if (support !== 0 && support !== 1) return refuse('support must be 0 or 1');
  if (correction !== 0 && correction !== 1) return refuse('correction must be 0 or 1');
  for (const field of dimensionFields) {
    const number = record[field];
    if (typeof number !== 'number' || !Number.isInteger(number)) {
      return refuse(`${field} must be a whole number`);
    }
    const max = field === 'consequence' ? consequenceMax : scaleMax;
    const inRange = number >= 0 && number <= max;
    if (!inRange && (field === 'consequence' || number !== unknownValue)) {
      return refuse(`${field} is out of range`);
    }
  }
  for (const [field, quote] of [
    ['evidence', evidence],
    ['task', task],
    ['commitment', commitment],
  ] as const) {
    if (typeof quote !== 'string') return refuse(`${field} must be a string`);
    if (quote !== '' && !check.quotes.includes(quote)) {
      return refuse(`${field} is not one of call 1's quotes`);
    }
  }
  const answer = record as unknown as Interpretation;
  const known = hasKnownInterpretation(answer);
  const emptyQuotes = answer.evidence === '' && answer.task === '' && answer.commitment === '';
  if (answer.support === 0 && (known || !emptyQuotes || answer.correction !== 0)) {
    return refuse('support 0 requires every dimension unknown, quotes empty and no correction');
  }
  if (!known && (!emptyQuotes || answer.correction !== 0)) {
    return refuse('without a known interpretation, quotes must be empty and correction 0');
  }
  if (answer.support === 1 && !known) return refuse('support 1 requires a known interpretation');
  if (known && answer.evidence === '') return refuse('a known interpretation requires evidence');
  if (answer.evidence === '' && (answer.task !== '' || answer.commitment !== '')) {
    return refuse('empty evidence allows no task or commitment quote');
  }
  const trustKnown = answer.trust_gain !== unknownValue || answer.trust_loss !== unknownValue;
  if (answer.task !== '' || trustKnown) {
    const descriptor = check.taskDescriptor;
    if (check.taskId === undefined || descriptor === undefined) {
      return refuse('task trust and a task quote need an admitted task with its descriptor');
    }
    if (answer.task !== descriptor) return refuse('the task quote is not the authored descriptor');
    if (occurrences(check.source, descriptor) !== 1) {
      return refuse('the task descriptor must occur exactly once in the source');
    }
  }
  if (answer.commitment !== '' && !isExplicitPromise(answer.commitment)) {
    return refuse('a commitment must quote an explicit promise of future action');
  }
  if (answer.correction === 1 && check.correctionTargets === 0) {
    return refuse('a correction needs an eligible assessment to correct');
  }
  return readValue(answer);
}
