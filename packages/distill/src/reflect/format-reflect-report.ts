import { stripControl } from '@mecha/appraisal-core';
import type { CorrectionOutcome, ReflectedCorrection, ReflectReport } from './reflect.js';

const words: Readonly<Record<CorrectionOutcome, string>> = {
  would_reflect: 'would be reflected on',
  written: 'lesson written',
  not_grounded: "not grounded (the lesson's quote is not in the owner's words; nothing written)",
  nothing_to_learn: 'nothing to learn, the model said',
  not_clean: 'not clean (third-party content, or not read whole): never shown to the model',
  no_words: 'no words (the owner said nothing with the steer)',
  on_record: 'lesson on record',
  failed: 'failed (tried again next pass)',
};

const order: readonly CorrectionOutcome[] = [
  'would_reflect',
  'written',
  'not_grounded',
  'nothing_to_learn',
  'failed',
  'not_clean',
  'no_words',
  'on_record',
];

function what(correction: ReflectedCorrection): string {
  switch (correction.kind) {
    case 'steer':
      return `steer in ${correction.sessionId} (run:turn ${correction.cite.id})`;
    case 'rejection':
      return `draft ${correction.cite.id} rejected (${correction.sessionId})`;
    case 'reopen':
      return `reopen ${correction.cite.id} (${correction.sessionId})`;
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
  const total = report.corrections.length;
  const head = `${report.dryRun ? 'dry run: ' : ''}${total} correction${total === 1 ? '' : 's'} on record; contrast evidence ${report.contrastEvidence ? 'on' : 'off ([agent] contrast_evidence)'}${report.dryRun ? '; no model call, nothing written' : ''}`;
  const lines = [head];
  for (const outcome of order) {
    const count = report.counts[outcome];
    if (count > 0) lines.push(`  ${count} ${words[outcome]}`);
  }
  const acted = report.corrections.filter((correction) =>
    ['would_reflect', 'written', 'not_grounded', 'nothing_to_learn', 'failed'].includes(
      correction.outcome,
    ),
  );
  for (const correction of acted.slice(0, shown)) {
    lines.push(`- ${what(correction)}: ${words[correction.outcome].split(' (')[0]}`);
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
