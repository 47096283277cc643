import {
  type CounterfactualLookup,
  citeText,
  type EventSource,
  eventSourceText,
  explainLabel,
  formatSign,
  formatValence,
  type GoalError,
  type GoalRef,
  goalText,
  outcomeText,
  type SessionReading,
  stripControl,
  stripControlDeep,
  type TextAppraisalLookup,
  type TextAppraisalRecord,
} from '@mecha/appraisal-core';
import type { ReadProblem } from '@mecha/stores';
import type { Style } from '../style.js';
import { type Clock, joined, notReadWhole, problemsSection, wrapText } from './format.js';

function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function controllableText(error: GoalError): string | undefined {
  if (error.controllable === 'unfilled') return undefined;
  return error.controllable ? 'an alternative existed' : 'no alternative';
}

function errorLine(error: GoalError, style: Style, source?: EventSource): string {
  const sign = formatSign(error.sign).padStart(5);
  const from =
    source === undefined ? '' : `\n${style.dim(`         from ${eventSourceText(source)}`)}`;
  return `  ${error.sign < 0 ? style.amber(sign) : sign}  ${error.channel.padEnd(12)}  ${error.agency.padEnd(5)}  ${joined(
    [
      citeText(error.cite),
      goalText(error.goal),
      error.visible ? 'reached someone' : undefined,
      controllableText(error),
    ],
  )}${from}`;
}

/** The lines of one text appraisal, every field stripped of control characters. */
export function textAppraisalLines(
  record: TextAppraisalRecord,
  style: Style,
  clock: Clock,
): string[] {
  const clean = record.taint === 'clean';
  const dropped = Object.entries(record.claims_dropped)
    .filter(([, value]) => value > 0)
    .map(([reason, value]) => `${stripControl(reason)} ${value}`)
    .join(', ');
  const lines = [
    `${style.bold(`text appraisal ${record.appraisal_id}`)} · session ${record.session_id} · ${clock(record.at)} · ${clean ? 'clean' : style.amber(`not clean (${record.taint.replace('_', ' ')})`)}`,
    ...wrapText(stripControl(record.interpretation), '  │ '),
    `  ${joined([
      `claims ${record.claims_kept} kept, ${Object.values(record.claims_dropped).reduce((sum, value) => sum + value, 0)} dropped by grounding${dropped === '' ? '' : ` (${dropped})`}`,
      record.expected_act === undefined
        ? 'no expected act'
        : `expects: ${record.expected_act.replaceAll('_', ' ')}`,
      record.goal_unresolved ? 'its judgment named a goal mecha does not hold' : undefined,
    ])}`,
  ];
  // Newer records carry the grounded claims, the prose prediction and the judged goal; older
  // ones only the counts. Read structurally, so either shape renders.
  const extra = record as TextAppraisalRecord & {
    readonly claims?: readonly {
      readonly text: string;
      readonly cite: { readonly kind: string; readonly id: string };
      readonly quote: string;
    }[];
    readonly prediction?: string;
    readonly goal?: GoalRef;
  };
  if (extra.goal !== undefined) lines.push(`  judged against ${goalText(extra.goal)}`);
  for (const claim of extra.claims ?? []) {
    lines.push(
      ...wrapText(
        stripControl(
          `claim: ${claim.text} (${claim.cite.kind.replace('_', ' ')} ${claim.cite.id}: "${claim.quote}")`,
        ),
        '  · ',
      ),
    );
  }
  // Newer still: a judgment per goal, what the owner's reactions suggest, and lessons.
  for (const judgment of record.judgments ?? []) {
    const goal = goalText(judgment.goal);
    lines.push(
      ...wrapText(
        stripControl(`${goal}: ${outcomeText(judgment.outcome)} — ${judgment.text}`),
        '  ◆ ',
      ),
    );
  }
  if ((record.judgment_goals_unresolved ?? 0) > 0) {
    lines.push(
      `  ${record.judgment_goals_unresolved} judgment${record.judgment_goals_unresolved === 1 ? '' : 's'} named a goal mecha does not hold (recorded as no goal)`,
    );
  }
  if (record.owner_wants !== undefined) {
    lines.push(...wrapText(stripControl(`the owner seems to want: ${record.owner_wants}`), '  ♦ '));
  }
  for (const lesson of record.lessons ?? []) {
    lines.push(...wrapText(stripControl(`lesson: ${lesson}`), '  ✓ '));
  }
  if (extra.prediction !== undefined) {
    lines.push(...wrapText(stripControl(`prediction: ${extra.prediction}`), '  → '));
  }
  if (!clean) lines.push(style.dim('  stored for you to read; it goes nowhere else'));
  return lines;
}

function textAppraisalSection(lookup: TextAppraisalLookup, style: Style, clock: Clock): string[] {
  switch (lookup.state) {
    case 'found':
      return ['', ...textAppraisalLines(lookup.record, style, clock)];
    case 'none':
      return ['', 'No text appraisal on record for this session (mecha distill writes them).'];
    case 'unreadable':
      return [
        '',
        'Whether this session has a text appraisal is unknown: the appraisal store was not read whole.',
      ];
  }
}

const checkWords = {
  dereferences: 'dereferences',
  missing: 'DOES NOT DEREFERENCE: its comparison is no longer on record',
  changed: 'DOES NOT DEREFERENCE: its comparison no longer says what it quotes',
  unknown: 'dereference unknown: the comparison store was not read whole',
} as const;

function counterfactualSection(lookup: CounterfactualLookup | undefined, style: Style): string[] {
  if (lookup === undefined) return [];
  if (lookup.state === 'unreadable') {
    return ['', 'Counterfactual reflections: unknown, the reflection store could not be read.'];
  }
  const lines: string[] = [];
  for (const { record, check } of lookup.reflections) {
    const taint = record.taint === 'clean' ? 'clean' : `not clean (${record.taint})`;
    const said = checkWords[check.state];
    lines.push(
      '',
      `counterfactual reflection ${stripControl(record.reflection_id)} · comparison:${stripControl(record.comparison_id)} · ${check.state === 'dereferences' || check.state === 'unknown' ? said : style.bold(said)} · ${taint}`,
      `  │ ${stripControl(record.text ?? '(no text recorded)')}`,
    );
  }
  if (lookup.state === 'partial') {
    lines.push('', 'The reflection store was not read whole: a reflection may be missing here.');
  }
  return lines;
}

/** The human readout of one session: its label and valence, each signed error with its cite, and its text appraisal. */
export function renderSession(
  reading: SessionReading,
  textAppraisal: TextAppraisalLookup,
  problems: readonly ReadProblem[],
  style: Style,
  clock: Clock,
  counterfactuals?: CounterfactualLookup,
): string {
  const valence = formatValence(reading.valence);
  const word = reading.label === 'neutral' ? undefined : capitalised(reading.label);
  const summary = !reading.transcriptRead
    ? 'its transcript could not be read'
    : joined([
        word,
        valence === '' ? (reading.valence.partial ? 'nothing signed…' : 'nothing signed') : valence,
      ]);
  const lines = [
    style.bold(`Session ${reading.sessionId}: ${summary}`),
    // Why this label: the one sentence every surface shows (explainLabel).
    `  ${explainLabel(reading).sentence}`,
  ];
  const notes: string[] = [];
  if (reading.compacted)
    notes.push('a run compacted: the label reads neutral and the valence is partial');
  if (reading.incomplete.length > 0)
    notes.push(`incomplete channels: ${reading.incomplete.join(', ')}`);
  if (notes.length > 0) lines.push(...notes.map((note) => `  ${note}`));
  const relevant = reading.errors;
  lines.push('');
  if (relevant.length === 0) lines.push('No signed errors.');
  else {
    lines.push(`Signed errors (${relevant.length}):`);
    lines.push(style.dim('   sign  channel       agency cite'));
    relevant.forEach((error, index) => {
      lines.push(errorLine(error, style, reading.entries[index]?.source));
    });
  }
  lines.push(
    ...textAppraisalSection(textAppraisal, style, clock),
    ...counterfactualSection(counterfactuals, style),
    ...problemsSection(problems),
    '',
  );
  return lines.join('\n');
}

/** One session's reading as JSON: the reading, and its text appraisal with control characters stripped. */
export function sessionJson(
  reading: SessionReading,
  textAppraisal: TextAppraisalLookup,
  problems: readonly ReadProblem[],
  counterfactuals?: CounterfactualLookup,
): string {
  return `${JSON.stringify(
    {
      session_id: reading.sessionId,
      transcript_read: reading.transcriptRead,
      label: reading.label,
      valence: reading.valence,
      // An error signed by an imported event carries where that event came from (`source`).
      errors: reading.errors.map((error, index) => {
        const source = reading.entries[index]?.source;
        return source === undefined ? error : { ...error, source: stripControlDeep(source) };
      }),
      incomplete: reading.incomplete,
      compacted: reading.compacted,
      cites_charter_line: reading.citesCharterLine,
      attributed_by_sensor: reading.attributedBySensor,
      text_appraisal:
        textAppraisal.state === 'found'
          ? { state: 'found', record: stripControlDeep(textAppraisal.record) }
          : { state: textAppraisal.state },
      not_read_whole: notReadWhole(problems),
      ...(counterfactuals === undefined
        ? {}
        : {
            counterfactuals:
              counterfactuals.state === 'unreadable'
                ? null
                : counterfactuals.reflections.map(({ record, check }) => ({
                    record: stripControlDeep(record),
                    dereferences: check.state === 'unknown' ? null : check.state === 'dereferences',
                    ...(check.state === 'missing' || check.state === 'changed'
                      ? { broken: check.state }
                      : {}),
                  })),
          }),
    },
    null,
    2,
  )}\n`;
}
