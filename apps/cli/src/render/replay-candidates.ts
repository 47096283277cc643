import { type ReplayCandidatesReadout, stripControl } from '@mecha/appraisal-core';

/** The replay order as text: one line a candidate, then what was not ranked and why. */
export function renderReplayCandidates(readout: ReplayCandidatesReadout): string {
  const lines: string[] = [];
  if (readout.listed === 'unreadable') {
    return 'Replay candidates: the session store could not be listed, so nothing was ranked.\n';
  }
  lines.push(
    readout.without_headroom === null
      ? 'Replay candidates, in the order replay selection takes them (no --headroom: every session is tied, so the charter decides):'
      : 'Replay candidates, in the order replay selection takes them (headroom first, then the charter):',
  );
  if (readout.candidates.length === 0) lines.push('  none in this window');
  readout.candidates.forEach((row, index) => {
    const line =
      row.charter_line === null
        ? 'no charter line'
        : `charter line ${row.charter_line} (rank ${row.charter_rank})`;
    const headroom = row.headroom === null ? '' : `  headroom ${row.headroom}`;
    lines.push(`  ${String(index + 1).padStart(3)}. ${row.session_id}  ${line}${headroom}`);
  });
  if (readout.charter === 'unreadable') {
    lines.push('The charter could not be read: no session could be ranked by a charter line.');
  } else if (readout.charter === 'partial') {
    lines.push('The charter was not read whole: a line on a damaged row ranks nothing.');
  }
  if (readout.without_headroom !== null && readout.without_headroom > 0) {
    lines.push(
      `${readout.without_headroom} session(s) of the window had no headroom given: not candidates.`,
    );
  }
  for (const torn of readout.unreadable) {
    lines.push(
      `Not ranked: ${torn.session_id}: its transcript could not be read (${torn.reason}).`,
    );
  }
  lines.push(
    'The order never reads a label or a valence: only the headroom and the charter line evidence is attributed to.',
  );
  return `${lines.map(stripControl).join('\n')}\n`;
}
