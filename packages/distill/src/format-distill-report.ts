import type { DistillReport, DistillResult } from './distill/distill-report.js';

const plural = (count: number, one: string, many = `${one}s`) =>
  `${count} ${count === 1 ? one : many}`;

function list(parts: readonly (readonly [number, string])[]): string {
  return parts
    .filter(([count]) => count > 0)
    .map(([count, words]) => `${count} ${words}`)
    .join(' · ');
}

function reasons(counts: Readonly<Record<string, number>>): string {
  return Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([reason, count]) => `${reason} ${count}`)
    .join(', ');
}

/** How many session ids a dry run names before it summarises the rest. */
const dryRunShown = 5;

function dryRunLines(report: DistillReport): string[] {
  const { counts } = report;
  const ids = report.sessions
    .filter((session) => session.outcome === 'would_distill')
    .map((session) => session.sessionId);
  return [
    `dry run: ${plural(counts.would_distill, 'session')} would be distilled into '${report.server}', ${plural(counts.would_mark_too_short, 'session')} marked too short; no model call, nothing written`,
    ...ids.slice(0, dryRunShown).map((id) => `  ${id}`),
    ...(ids.length > dryRunShown
      ? [`  … and ${ids.length - dryRunShown} more (--json lists every one)`]
      : []),
  ];
}

/**
 * Renders a run's report as the lines `mecha distill` prints: what was pushed, what was left
 * for a later run and why, corrections and surprises (withheld counts said, never a silent
 * zero), text appraisals, and every surprise with control characters already stripped.
 */
export function formatDistillReport(result: DistillResult): string[] {
  if (result.state === 'cannot_run') return [result.message];
  const report = result.report;
  const { counts } = report;
  const lines: string[] = [];
  if (!report.readBackUntrusted) {
    lines.push(
      `warning: [[mcp]] '${report.server}' is not marked untrusted_input — add [mcp.capabilities] untrusted_input = true so what mecha reads back from the graph is treated as third-party content`,
    );
  }
  if (report.dryRun) return [...lines, ...dryRunLines(report)];
  const marked = counts.pushed + counts.skipped + counts.too_short;
  lines.push(
    `distilled ${plural(marked, 'session')} into '${report.server}': ${counts.pushed} pushed (${report.graph.inserted} new, ${report.graph.updated} updated, ${report.graph.unchanged} unchanged) · ${counts.skipped} skipped · ${counts.too_short} too short`,
  );
  const left = list([
    [counts.push_failed, 'push failed'],
    [counts.model_failed, 'model call failed'],
    [counts.unreadable, 'transcript unreadable'],
    [counts.ledger_unavailable, 'ledger busy or unreadable'],
    [counts.not_marked, 'pushed but not marked'],
  ]);
  if (left !== '') lines.push(`left for a later run: ${left}`);
  const givenUp = report.sessions.filter((session) => session.outcome === 'given_up');
  if (givenUp.length > 0) {
    lines.push(
      `given up (the same failure on every try; no model call for them again): ${givenUp.length}`,
      ...givenUp.map((session) => `  ${session.sessionId} · ${session.reason ?? ''}`),
    );
  }
  const open = list([
    [counts.running, 'still running'],
    [counts.parked, 'parked on a question'],
  ]);
  if (open !== '') lines.push(`not finished yet: ${open}`);
  const c = report.corrections;
  if (c.reported > 0) {
    lines.push(
      `corrections: ${c.sent} sent (${c.applied} applied, ${c.denied} denied, ${c.toReview} to review, ${c.duplicate} already known)${c.ungrounded > 0 ? ` · ${c.ungrounded} not in your own words, sent to review` : ''} · ${c.withheld} withheld (timeline not known clean)`,
    );
  }
  const s = report.surprises;
  if (s.reported > 0) {
    lines.push(
      `surprises: ${s.sent} sent to the graph · ${s.withheld} withheld (timeline not known clean or not pushed)`,
    );
    for (const item of s.items) {
      lines.push(
        `  ${item.sessionId} · ${item.about}: the graph said "${item.graphSaid}", the session found "${item.found}"${item.sentToGraph ? '' : ' (not in the graph)'} → mecha gossip --entity ${JSON.stringify(item.about)}`,
      );
    }
  }
  const a = report.appraisals;
  if (a.written + a.failed + a.onRecord > 0 || a.storeUnreadable) {
    const dropped = reasons(a.claimsDropped);
    const droppedTotal = Object.values(a.claimsDropped).reduce((sum, count) => sum + count, 0);
    lines.push(
      `text appraisals: ${a.written} written${a.onRecord > 0 ? ` · ${a.onRecord} already on record` : ''}${a.failed > 0 ? ` · ${a.failed} failed` : ''} · claims ${a.claimsKept} kept, ${droppedTotal} dropped by grounding${dropped === '' ? '' : ` (${dropped})`}${a.goalsUnresolved > 0 ? ` · ${plural(a.goalsUnresolved, 'goal')} not held by mecha, recorded as none` : ''}${a.storeUnreadable ? ' · appraisal store unreadable: none asked for' : ''}`,
    );
  }
  const f = report.facts;
  if (f.episodes + f.failed > 0) {
    const dropped = reasons(f.dropped);
    const droppedTotal = Object.values(f.dropped).reduce((sum, count) => sum + count, 0);
    lines.push(
      `candidate facts for review: ${plural(f.entities, 'entity', 'entities')} and ${plural(f.relations, 'relation')} extracted by the model from ${plural(f.episodes, 'episode')} · ${droppedTotal} not in the episode's words, left out${dropped === '' ? '' : ` (${dropped})`}${f.failed > 0 ? ` · ${f.failed} extraction${f.failed === 1 ? '' : 's'} failed (the graph reads that prose itself)` : ''}`,
    );
  }
  const cf = report.counterfactuals;
  if (
    cf !== undefined &&
    (cf.written + cf.waiting + (cf.wouldWrite ?? 0) > 0 || cf.failed || cf.storesUnreadable)
  ) {
    lines.push(
      `counterfactual reflections: ${cf.wouldWrite === undefined ? `${cf.written} written` : `${cf.wouldWrite} would be written`}${cf.waiting > 0 ? ` · ${cf.waiting} waiting for their session's appraisal` : ''}${cf.failed ? ' · the write failed, none added' : ''}${cf.storesUnreadable ? ' · a comparison, reflection or appraisal store could not be read: none added' : ''}`,
    );
  }
  const p = report.scoring;
  if (p !== undefined && (p.scored + p.waiting + p.unknown > 0 || p.problem !== undefined)) {
    lines.push(
      `predictions: ${p.scored} answered now (${p.hits} as expected, ${p.surprises} surprises) · ${p.waiting} waiting · ${p.unknown} unknown${p.problem === undefined ? '' : ` · ${p.problem}`}`,
    );
  }
  if (report.partialStores)
    lines.push('note: the ledger or the session list had damaged lines; intact lines were used');
  if (report.stopped !== undefined) lines.push(`stopped early: ${report.stopped.message}`);
  return lines;
}
