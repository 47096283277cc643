import { couldNotRead, readValue, type ValueRead } from '@mecha/errors';
import { z } from 'zod';
import { type DistillBounds, defaultDistillBounds } from './distill-grammar.js';

/**
 * Characters as the grammar counted them. A model can emit bytes that are not valid UTF-8; the
 * grammar counts such a sequence as one character and the decoder turns it into a run of
 * U+FFFD, so a run counts once here.
 */
function grammarLength(text: string): number {
  return Array.from(text.replace(/\uFFFD+/g, '\uFFFD')).length;
}

const bounded = (most: number) =>
  z.string().refine((text) => text.length > 0 && grammarLength(text) <= most, {
    error: `must be 1 to ${most} characters`,
  });

/** A correction the distiller reported: the belief the owner said is wrong, and what is right. */
export interface ReportedCorrection {
  readonly wrong: string;
  readonly right?: string;
  readonly about?: string;
  /** The owner's own words that say so, quoted from the transcript; what grounds it. */
  readonly quote?: string;
}

/** A surprise: what the graph told the session and what the session then found. No repair. */
export interface ReportedSurprise {
  readonly about: string;
  readonly graph_said: string;
  readonly found: string;
}

/** A distiller reply as parsed: an episode or a skip, and any corrections and surprises. */
export type DistillReply =
  | {
      readonly skip: true;
      readonly corrections: readonly ReportedCorrection[];
      readonly surprises: readonly ReportedSurprise[];
    }
  | {
      readonly skip: false;
      readonly episode: string;
      readonly corrections: readonly ReportedCorrection[];
      readonly surprises: readonly ReportedSurprise[];
    };

/**
 * The zod schema of a reply under the given bounds: the same shape the grammar allows, checked
 * again because a reply can come from a model that did not decode under it.
 */
export function distillReplySchema(bounds: DistillBounds = defaultDistillBounds) {
  const correction = z.strictObject({
    wrong: bounded(bounds.belief),
    right: bounded(bounds.belief).optional(),
    about: bounded(bounds.about).optional(),
    quote: bounded(bounds.belief).optional(),
  });
  const surprise = z.strictObject({
    about: bounded(bounds.about),
    graph_said: bounded(bounds.surpriseText),
    found: bounded(bounds.surpriseText),
  });
  const extras = {
    corrections: z.array(correction).max(bounds.corrections).optional(),
    surprises: z.array(surprise).max(bounds.surprises).optional(),
  };
  return z.discriminatedUnion('skip', [
    z.strictObject({ skip: z.literal(true), ...extras }),
    z.strictObject({ skip: z.literal(false), episode: bounded(bounds.episode), ...extras }),
  ]);
}

/** A reply parsed, or why it could not be. */
export type ParsedReply = ValueRead<DistillReply>;

/**
 * Parses a distiller's text. An episode of only whitespace reads as a skip: there is nothing in
 * it to keep, and re-asking nightly would not change that.
 */
export function parseDistillReply(
  text: string,
  bounds: DistillBounds = defaultDistillBounds,
): ParsedReply {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return couldNotRead('the reply is not JSON');
  }
  const parsed = distillReplySchema(bounds).safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.map(String).join('.') ?? '';
    return couldNotRead(
      `the reply does not match the grammar: ${where === '' ? '' : `${where}: `}${issue?.message ?? 'invalid'}`,
    );
  }
  const data = parsed.data;
  const corrections: ReportedCorrection[] = (data.corrections ?? []).map((item) => ({
    wrong: item.wrong,
    ...(item.right === undefined ? {} : { right: item.right }),
    ...(item.about === undefined ? {} : { about: item.about }),
    ...(item.quote === undefined ? {} : { quote: item.quote }),
  }));
  const surprises: ReportedSurprise[] = (data.surprises ?? []).map((item) => ({ ...item }));
  if (data.skip || data.episode.trim() === '') {
    return readValue({ skip: true, corrections, surprises });
  }
  return readValue({ skip: false, episode: data.episode, corrections, surprises });
}
