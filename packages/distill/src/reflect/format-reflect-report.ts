import { stripControl } from '@mecha/appraisal-core';
import type {
  CorrectionOutcome,
  DeclineOnRecord,
  ReflectedCorrection,
  ReflectReport,
} from './reflect.js';

const words: Readonly<Record<CorrectionOutcome, string>> = {
  would_reflect: 'would be reflected on',
  would_judge:
    'would be judged (a follow-up: reflected on only if the model judges it a correction)',
  written: 'lesson written',
  not_grounded: "not grounded (the model's quote is not in the owner's words; nothing kept)",
  nothing_to_learn: 'nothing to learn, the model said',
  not_a_correction: 'not a correction, the model judged',
  declined: 'declined before (not asked again by the same model under the same prompt)',
  not_clean: 'not clean (third-party content, or not read whole): never shown to the model',
  no_words: 'no words (the owner said nothing with the steer)',
  on_record: 'lesson on record',
  failed: 'failed (tried again next pass)',
};

/** The outcomes listed one by one: what the pass asked (or would), and what it would not ask. */
const listedOutcomes: readonly CorrectionOutcome[] = [
  'would_judge',
  'would_reflect',
  'written',
  'not_grounded',
  'nothing_to_learn',
  'not_a_correction',
  'failed',
  'declined',
];
const listed: ReadonlySet<CorrectionOutcome> = new Set(listedOutcomes);

/** Every outcome, in the order the summary names them: the listed ones first. */
const order: readonly CorrectionOutcome[] = [
  ...listedOutcomes,
  'not_clean',
  'no_words',
  'on_record',
];

const declineWords: Readonly<Record<DeclineOnRecord['outcome'], string>> = {
  not_a_correction: 'judged not a correction',
  not_grounded: "answered with a quote not in the owner's words",
  nothing_to_learn: 'found nothing to learn',
};

function what(correction: ReflectedCorrection): string {
  switch (correction.kind) {
    case 'steer':
      return `steer in ${correction.sessionId} (run:turn ${correction.cite.id})`;
    case 'rejection':
      return `draft ${correction.cite.id} rejected (${correction.sessionId})`;
    case 'reopen':
      return `reopen ${correction.cite.id} (${correction.sessionId})`;
    case 'follow_up':
      return `follow-up in ${correction.sessionId} (run:turn ${correction.cite.id})`;
  }
}

/** How many corrections a report lists one by one before it summarises the rest. */
const shown = 20;

/**
 * The lines `mecha reflect` prints (and `mecha nightly` before its distill report): one count
 * per outcome, each correction the pass reflected on (or would) with the contrast it was shown,
 * and what could not be read. Every field read from the home is stripped of control characters.
 */
export function formatReflectReport(report: ReflectReport): string[] {
  // A follow-up is a correction once judged one; until then it is counted apart.
  const follows = report.corrections.filter(
    (correction) => correction.kind === 'follow_up' && correction.judged === undefined,
  ).length;
  const total = report.corrections.length - follows;
  const also =
    follows === 0
      ? ''
      : `, and ${follows} follow-up${follows === 1 ? '' : 's'} (your next message after a run ended) not judged a correction`;
  const head = `${report.dryRun ? 'dry run: ' : ''}${total} correction${total === 1 ? '' : 's'} on record${also}; contrast evidence ${report.contrastEvidence ? 'on' : 'off ([agent] contrast_evidence)'}${report.dryRun ? '; no model call, nothing written' : ''}`;
  const lines = [head];
  for (const outcome of order) {
    const count = report.counts[outcome];
    if (count > 0) lines.push(`  ${count} ${words[outcome]}`);
  }
  if (report.judgmentsWritten > 0) {
    lines.push(
      `  ${report.judgmentsWritten} follow-up${report.judgmentsWritten === 1 ? '' : 's'} judged a correction (each signs its run −1.0)`,
    );
  }
  const acted = report.corrections.filter((correction) => listed.has(correction.outcome));
  for (const correction of acted.slice(0, shown)) {
    const judged =
      correction.judged === 'now'
        ? ' (judged a correction now)'
        : correction.judged === 'on_record'
          ? ' (judged a correction)'
          : '';
    lines.push(`- ${what(correction)}${judged}: ${words[correction.outcome].split(' (')[0]}`);
    if (correction.declined !== undefined) {
      const decline = correction.declined;
      lines.push(
        `    skipped: ${decline.model} ${declineWords[decline.outcome]} at ${decline.at} (${decline.step} prompt ${decline.prompt}); another model or prompt asks again`,
      );
    }
    if (correction.lesson !== undefined) {
      lines.push(`    ${correction.lessonId}: ${correction.lesson}`);
    }
    if (correction.reason !== undefined) lines.push(`    ${correction.reason}`);
    if (correction.contrast === null) lines.push('    contrast: no verified success qualifies');
    else if (correction.contrast !== undefined) {
      lines.push(
        `    contrast: ${correction.contrast.verifiedBy} in ${correction.contrast.sessionId}; calls ${correction.contrast.trace}`,
      );
    }
  }
  if (acted.length > shown)
    lines.push(`  … and ${acted.length - shown} more (--json lists every one)`);
  for (const source of report.unread) lines.push(`not read whole: ${source}`);
  if (report.stopped !== undefined) lines.push(`stopped: ${report.stopped.message}`);
  return lines.map((line) => stripControl(line));
}
