import { isExplicitPromise } from './explicit-promise.js';
import { dimensionFields, unknownValue, unsupportedInterpretation } from './interpretation.js';
import { gbnfLiteral, jsonString } from './json-text.js';

/** What call 2's grammar is built from: call 1's quotes and what the source admits. */
export interface InterpretationContext {
  /** Call 1's quotes: evidence, task and commitment can only be chosen from these. */
  readonly quotes: readonly string[];
  /**
   * The authored task descriptor when task trust is possible: the task id was admitted, its
   * descriptor occurs exactly once in the source, and call 1 quoted it. Otherwise undefined.
   */
  readonly taskDescriptor?: string;
  /** Whether the correction context holds at least one eligible assessment. */
  readonly correctionAllowed: boolean;
}

const literal = (text: string) => gbnfLiteral(text);
const key = (field: string, first = false) => literal(`${first ? '' : ','}"${field}":`);

/**
 * Call 2's GBNF grammar: one object with the fourteen fields in their fixed order and no
 * whitespace. `support:0` is one literal branch with everything unknown and empty. Under
 * `support:1` every scaled value is 0–1,000,000 or unknown and consequence 0–4, at least one
 * dimension must be known (tracked through the fields by a seen/unseen pair of rules), the
 * evidence is one of call 1's quotes, task trust is known only when the task quote is the
 * admitted descriptor, a commitment is a quote stating a promise, and correction 1 is offered
 * only when there is something to correct.
 */
export function buildInterpretationGrammar(context: InterpretationContext): string {
  const zero = Object.entries(unsupportedInterpretation)
    .map(([field, value], index) => `${index === 0 ? '' : ','}"${field}":${JSON.stringify(value)}`)
    .join('');
  const lines = [
    `root ::= "{" (${literal(zero)} | one) "}"`,
    'num ::= "0" | [1-9] | [1-9] [0-9] | [1-9] [0-9] [0-9] | [1-9] [0-9] [0-9] [0-9] | [1-9] [0-9] [0-9] [0-9] [0-9] | [1-9] [0-9] [0-9] [0-9] [0-9] [0-9] | "1000000"',
    `unk ::= "${unknownValue}"`,
  ];
  const quotes = [...new Set(context.quotes)].filter((quote) => quote !== '');
  if (quotes.length === 0) {
    // Nothing quoted: nothing can be supported.
    return `${lines[0]?.replace(' | one', '')}\n`;
  }
  const quoteRule = (list: readonly string[]) =>
    list.map((quote) => literal(jsonString(quote))).join(' | ');
  lines.push(`evidence ::= ${quoteRule(quotes)}`);
  const promises = quotes.filter(isExplicitPromise);
  lines.push(
    `commitment ::= ${literal('""')}${promises.length ? ` | ${quoteRule(promises)}` : ''}`,
  );
  lines.push(`correction ::= "0"${context.correctionAllowed ? ' | "1"' : ''}`);
  const descriptor =
    context.taskDescriptor !== undefined && quotes.includes(context.taskDescriptor)
      ? context.taskDescriptor
      : undefined;
  const tail = (task: string) =>
    `${key('evidence')} evidence ${key('task')} ${task} ${key('commitment')} commitment ${key('correction')} correction`;
  const trustUnknown = `${key('trust_gain')} unk ${key('trust_loss')} unk`;
  const noTask = literal('""');
  const task = descriptor === undefined ? undefined : literal(jsonString(descriptor));
  // Dimensions before trust: d{i}u (nothing known yet) and d{i}s (something known). Without an
  // admitted descriptor trust must stay unknown, so "nothing known" has no way past trust.
  const beforeTrust = dimensionFields.slice(0, 7);
  lines.push(`one ::= ${key('support', true)} "1" ${key('benefit')} d0u`);
  beforeTrust.forEach((field, index) => {
    const last = index + 1 === beforeTrust.length;
    const next = last ? ' t' : ` ${key(beforeTrust[index + 1] as string)} d${index + 1}`;
    const stayUnknown = !last || task !== undefined;
    const [zeroValue, knownValue] = field === 'consequence' ? ['"0"', '[1-4]'] : ['unk', 'num'];
    const unseen = [`${knownValue}${next}s`];
    if (stayUnknown) unseen.unshift(`${zeroValue}${next}u`);
    lines.push(`d${index}u ::= ${unseen.join(' | ')}`);
    lines.push(`d${index}s ::= (${zeroValue} | ${knownValue})${next}s`);
  });
  if (task === undefined) {
    lines.push(`ts ::= ${trustUnknown} ${tail(noTask)}`);
  } else {
    const knownTrust = `(${key('trust_gain')} num ${key('trust_loss')} (unk | num) | ${key('trust_gain')} unk ${key('trust_loss')} num)`;
    lines.push(
      `ts ::= ${trustUnknown} ${tail(`(${noTask} | ${task})`)} | ${knownTrust} ${tail(task)}`,
    );
    lines.push(`tu ::= ${knownTrust} ${tail(task)}`);
  }
  return `${lines.join('\n')}\n`;
}
