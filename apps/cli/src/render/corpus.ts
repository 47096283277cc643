import {
  type CorpusAppraisal,
  formatValence,
  type Label,
  labelSchema,
  reachabilityLine,
} from '@mecha/appraisal-core';
import type { ReadProblem } from '@mecha/stores';
import type { Style } from '../style.js';
import { count, joined, percent, plural, problemsSection, tallyText } from './format.js';

/** What the readout was asked for, to say so in its heading. */
export interface CorpusScope {
  readonly days?: number;
  readonly kind?: string;
  readonly includeTests: boolean;
  /** `--probe` was asked for and no replayer is configured. */
  readonly probeAsked: boolean;
}

function heading(result: CorpusAppraisal, scope: CorpusScope): string {
  const window =
    scope.days === undefined ? 'all time' : `begun in the last ${plural(scope.days, 'day')}`;
  const kind = scope.kind === undefined ? '' : `, kind ${scope.kind}`;
  const tests = scope.includeTests ? ', development sessions included' : '';
  const partial = result.valence.partial ? ' (partial)' : '';
  return `Appraisal of ${plural(result.sessions_read, 'session')} (${window}${kind}${tests})${partial}`;
}

function labelsText(labels: Readonly<Record<Label, number>> | null): string {
  if (labels === null) return 'unknown (the session list could not be read)';
  const parts = labelSchema.options
    .filter((label) => labels[label] > 0)
    .sort((a, b) => labels[b] - labels[a])
    .map((label) => `${label} ${labels[label]}`);
  return parts.length === 0 ? 'none (no session read)' : parts.join(' · ');
}

function valenceText(result: CorpusAppraisal, style: Style): string {
  const { positive, negative, partial } = result.valence;
  if (positive === null || negative === null) return 'unknown (the session list could not be read)';
  const text = formatValence({ positive, negative, partial });
  if (text === '') return partial ? 'nothing signed…' : 'nothing signed';
  return negative > 0 ? style.amber(text) : text;
}

function readFlags(result: CorpusAppraisal): string {
  const sources: [string, boolean][] = [
    ['outbox', result.outbox_read],
    ['questions', result.questions_read],
    ['front door', result.frontdoor_read],
    ['learning', result.learning_read],
    ['charter', result.charter_read],
    ['closures', result.closures_read],
    ['workflows', result.workflows_read],
  ];
  const missing = sources.filter(([, read]) => !read).map(([name]) => name);
  return missing.length === 0 ? 'every store read whole' : `not read whole: ${missing.join(', ')}`;
}

function textAppraisalsLine(section: CorpusAppraisal['text_appraisals']): string {
  if (section === null) return 'text appraisals: the store could not be read';
  const dropped = Object.entries(section.dropped_by)
    .filter(([, value]) => value > 0)
    .map(([reason, value]) => `${reason} ${value}`)
    .join(', ');
  const parts = [
    `text appraisals on record: ${section.records} over ${section.sessions} session(s)`,
    `${section.clean} clean`,
    `${section.not_clean} not clean (the owner's surfaces only)`,
    `claims ${section.claims_kept} kept, ${section.claims_dropped} dropped by grounding${dropped === '' ? '' : ` (${dropped})`}`,
  ];
  if (section.counterfactuals === null) parts.push('counterfactual reflections unknown');
  else if (section.counterfactuals > 0) {
    parts.push(
      `${section.counterfactuals} counterfactual reflection(s) (${count(section.counterfactuals_not_clean)} not clean)`,
    );
  }
  if (!section.read) parts.push('store not read whole');
  return joined(parts);
}

function expectationsLine(section: CorpusAppraisal['expectations']): string {
  if (section === null)
    return 'expectations: unknown (the appraisal store or the session list could not be read)';
  return joined([
    `expectations: ${section.with_expectation} with an expected act`,
    `scored ${section.scored}`,
    section.scored > 0 ? `hits ${section.hits}` : undefined,
    section.scored > 0
      ? `surprises ${section.surprises} (${section.clean_surprises} clean)`
      : undefined,
    `waiting ${section.pending}`,
    `unknown ${section.unknown}`,
    section.board_not_read > 0
      ? `${section.board_not_read} task output(s) await mecha distill's read of the board`
      : undefined,
    section.hit_rate === null ? undefined : `hit rate ${percent(section.hit_rate)}`,
    section.read ? undefined : 'store not read whole',
  ]);
}

function successesLines(section: CorpusAppraisal['successes']): string[] {
  const kinds = section.by_kind;
  const byKind = joined([
    `draft sent unchanged ${count(kinds.draft_sent_unchanged)}`,
    `task closed done ${count(kinds.task_closed_done)}`,
    `workflow closed after its check ${count(kinds.workflow_closed_after_check)}`,
    `question answered then finished ${count(kinds.question_answered_then_finished)}`,
  ]);
  const lines = [
    `  successes   ${count(section.standing)} standing (${byKind})`,
    `              ${joined([`${count(section.withdrawn)} withdrawn by a reopen`, `${count(section.unknown)} unknown, never counted`, `${count(section.hidden)} hidden in development sessions`])}`,
  ];
  const exemplars = section.exemplars;
  if (exemplars === null)
    lines.push('              writing exemplars unknown (the outbox could not be read)');
  else {
    const origin = joined([tallyText(exemplars.by_tool), tallyText(exemplars.by_taint)]);
    lines.push(
      `              ${plural(exemplars.total, 'writing exemplar')}${origin === '' ? '' : ` (${origin})`}, shown to no run yet`,
    );
  }
  if (section.partial)
    lines.push(`              partial: ${section.unreadable.join(', ')} not read whole`);
  return lines;
}

function comparisonsLine(section: CorpusAppraisal['comparisons']): string {
  if (section === null) return 'comparisons: the store could not be read';
  if (
    section.records === 0 &&
    section.other_models === 0 &&
    section.unposed === 0 &&
    section.no_model === 0
  ) {
    return 'comparisons: none on record';
  }
  return joined([
    `comparisons${section.model === null ? '' : ` under ${section.model}`}: ${section.records}`,
    `separated ${section.separated}, tied ${section.tied}, inconclusive ${section.inconclusive}, unreadable verdict ${section.unreadable_verdict}`,
    `${section.judge_decided} judge-decided`,
    `separated share ${percent(section.separated_share)}`,
    section.other_models > 0
      ? `${section.other_models} under other models (counted apart)`
      : undefined,
    section.unposed > 0 ? `${section.unposed} unposed` : undefined,
    section.no_model > 0 ? `${section.no_model} with no model recorded` : undefined,
    section.read ? undefined : 'store not read whole',
  ]);
}

function predictionsLine(section: CorpusAppraisal['predictions']): string {
  if (section === null) return 'predictions: the store could not be read';
  if (section.total === 0 && section.unreadable === 0) return 'predictions: none on record';
  let scored: number | null = 0;
  let materialized: number | null = 0;
  for (const group of Object.values(section.by_response)) {
    scored = scored === null || group.scored === null ? null : scored + group.scored;
    materialized =
      materialized === null || group.materialized === null
        ? null
        : materialized + group.materialized;
  }
  return joined([
    `predictions: ${section.total}`,
    `scored ${count(scored)}`,
    `materialized ${count(materialized)}`,
    section.unreadable > 0 ? `${section.unreadable} unreadable` : undefined,
    section.outbox_read ? undefined : 'outbox not read whole',
  ]);
}

/**
 * The human readout of `sessions appraise`: the valence first (positive and negative apart),
 * then the labels and the reachability line derived from the core, then every count, each
 * `unknown` where its source could not be read, and what could not be read.
 */
export function renderCorpus(
  result: CorpusAppraisal,
  scope: CorpusScope,
  problems: readonly ReadProblem[],
  style: Style,
): string {
  const acts = result.owner_acts;
  const curation = result.curation;
  const lines = [
    style.bold(heading(result, scope)),
    '',
    `  valence     ${valenceText(result, style)}`,
    ...(result.valence.partial && problems.length === 0 && result.sessions_unreadable === 0
      ? ['              partial: a run compacted, so its interventions could not be scoped']
      : []),
    `  labels      ${labelsText(result.labels)}`,
    style.dim(`              ${reachabilityLine()}`),
    '',
    `  sessions    ${joined([`${count(result.sessions_read)} read`, `${count(result.sessions_unreadable)} unreadable`, `${count(result.tests_hidden)} development hidden`, `${count(result.experiments_hidden)} experiments hidden`])}`,
    `  goals       ${joined([`${count(result.named_a_goal)} named a goal`, `${count(result.attributed_by_sensor)} attributed by a sensor`, `${count(result.cite_a_charter_line)} cite a charter line`])}`,
    `              ${joined([`${count(result.goal_put_to_owner)} put a goal to you`, `${count(result.goal_confirmed)} confirmed`])}`,
    `  your acts   ${joined([`task closed ${count(acts.task_closed)}`, `dropped ${count(acts.task_dropped)}`, `reopened ${count(acts.task_reopened)}`])}`,
    `              ${joined([`workflow closed ${count(acts.workflow_closed)}`, `cancelled ${count(acts.workflow_cancelled)}`, `reopened ${count(acts.workflow_reopened)}`, `verification failed ${count(acts.workflow_verify_failed)}`])}`,
    `  rejections  ${joined([`${count(result.reasoned_rejections)} with your reason`, `${count(result.unattributed_rejections)} with a reason not recorded as yours (never mined)`])}`,
    `  curation    ${joined([
      curation.rules === null
        ? 'rules unknown'
        : `rules ${curation.rules.retired} retired, ${curation.rules.restored} restored`,
      curation.reflections === null
        ? 'reflections unknown'
        : `reflections ${curation.reflections.dropped} dropped, ${curation.reflections.edited} edited`,
      curation.candidates === null
        ? 'candidates unknown'
        : `candidates ${curation.candidates.accepted} accepted, ${curation.candidates.rejected} rejected, ${curation.candidates.reverted} reverted`,
    ])}`,
    style.dim("              verdicts on what the learner made, never a run's score"),
    '  graph       rejected graph facts are not readable from mecha yet',
    `  sources     ${readFlags(result)}`,
    '',
    ...successesLines(result.successes),
    '',
    `  ${textAppraisalsLine(result.text_appraisals)}`,
    `  ${expectationsLine(result.expectations)}`,
    `  ${comparisonsLine(result.comparisons)}`,
    `  ${predictionsLine(result.predictions)}`,
    ...probeLines(result.probe, scope.probeAsked).map((line) => `  ${line}`),
    ...problemsSection(problems),
    '',
  ];
  return lines.join('\n');
}

function probeLines(probe: CorpusAppraisal['probe'], asked: boolean): string[] {
  if (probe !== null) {
    const row = (name: string, n: number, note = '') =>
      `  ${name.padEnd(14)} ${String(n).padStart(4)}${note === '' ? '' : `  — ${note}`}`;
    return [
      `counterfactual probe (${plural(probe.driven, 'replay')} driven)`,
      row('mattered', probe.mattered, 'the intervention was load-bearing: regret'),
      row('redundant', probe.redundant, 'the run got there anyway: disappointment'),
      row('inconclusive', probe.inconclusive, 'a replay ran and posed no question: stays distress'),
      row('skipped', probe.skipped, 'nothing recorded to reach: nothing spent'),
      row(
        'unprobeable',
        probe.unprobeable,
        'draft edits, stops and follow-ups have no probe point',
      ),
      ...(probe.over_ceiling > 0
        ? [row('over ceiling', probe.over_ceiling, 'not driven: --max-probes was reached')]
        : []),
    ];
  }
  return [
    asked
      ? 'counterfactual probe: not run: no replayer is configured, so no steer could be replayed (nothing was spent)'
      : 'counterfactual probe: not run (the paid pass is --probe)',
  ];
}
