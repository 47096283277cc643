import { createScriptedModel, type ScriptedModelOptions } from '@mecha/local-model';
import { type Interpretation, unsupportedInterpretation } from '../interpretation.js';

/** What a scripted "competent model" answers for one report. */
export interface ScriptedAnswer {
  readonly quotes: readonly string[];
  readonly interpretation?: Partial<Interpretation>;
}

/** The report inside a rendered prompt (between the `<report>` markers). */
export function reportOf(prompt: string): string {
  const start = prompt.indexOf('<report>\n');
  const end = prompt.lastIndexOf('\n</report>');
  return prompt.slice(start + '<report>\n'.length, end);
}

/** Whether the prompt is call 1's (quotes) rather than call 2's (interpretation). */
export function isQuoteCall(prompt: string): boolean {
  return prompt.includes('You read one report about a person and quote it.');
}

/** The interpretation as call 2 writes it: the fourteen fields in order, no whitespace. */
export function answerText(interpretation: Partial<Interpretation>): string {
  return JSON.stringify({ ...unsupportedInterpretation, ...interpretation });
}

/**
 * A scripted model standing in for a competent model (a real one cannot run here): it answers
 * call 1 and call 2 from `answer(report)`. The appraiser's grammar is recorded, not enforced,
 * so every answer goes through the independent parser exactly as a real model's would.
 */
export function scriptedAppraiserModel(
  answer: (report: string) => ScriptedAnswer,
  options: ScriptedModelOptions = {},
) {
  return createScriptedModel((prompt) => {
    const scripted = answer(reportOf(prompt));
    return isQuoteCall(prompt)
      ? JSON.stringify(scripted.quotes)
      : answerText(scripted.interpretation ?? {});
  }, options);
}
