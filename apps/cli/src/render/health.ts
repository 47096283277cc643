import type { CounterHealth, HealthReadout } from '@mecha/appraisal-core';
import type { ReadProblem } from '@mecha/stores';
import type { Style } from '../style.js';
import { count, joined, plural, problemsSection } from './format.js';

const counterNames = {
  goal_drift: 'goal drift',
  null_steps: 'null steps',
  reopened_steps: 'reopened steps',
  boredom_fired: 'boredom notices',
} as const;

function counterText(entry: CounterHealth | null): string {
  if (entry === null) return 'unknown: no run in the window recorded it';
  return `fired in ${entry.runs_fired} of ${plural(entry.runs_recorded, 'run')} that recorded it (total ${entry.total})`;
}

/** The human readout of `sessions health`: per-run counters, each unknown where no run recorded it. */
export function renderHealth(
  result: HealthReadout,
  days: number | undefined,
  problems: readonly ReadProblem[],
  style: Style,
): string {
  const window = days === undefined ? 'all time' : `begun in the last ${plural(days, 'day')}`;
  const lines = [
    style.bold(
      `Health of ${plural(result.runs, 'run')} over ${plural(result.sessions_read, 'session')} (${window})${result.partial ? ' (partial)' : ''}`,
    ),
    '',
    `  sessions    ${joined([`${count(result.sessions_read)} read`, `${count(result.sessions_unreadable)} unreadable`, `${count(result.tests_hidden)} development hidden`, `${count(result.experiments_hidden)} experiments hidden`])}`,
  ];
  if (result.stop_causes === null)
    lines.push('  stops       unknown (the session list could not be read)');
  else {
    const stops = Object.entries(result.stop_causes)
      .filter(([, value]) => value > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([cause, value]) => `${cause} ${value}`);
    lines.push(
      `  stops       ${joined([stops.join(' · ') || 'no run recorded an end', `${count(result.runs_without_end)} with no end recorded`])}`,
    );
  }
  lines.push(`  compacted   ${plural(result.runs_compacted, 'run')}`, '');
  for (const [field, name] of Object.entries(counterNames) as [
    keyof typeof counterNames,
    string,
  ][]) {
    lines.push(`  ${name.padEnd(15)} ${counterText(result.counters[field])}`);
  }
  const others = Object.entries(result.other_counters);
  if (others.length > 0) {
    lines.push('', '  other counters:');
    for (const [name, entry] of others) lines.push(`    ${name.padEnd(20)} ${counterText(entry)}`);
  }
  const brief = result.situation_brief;
  lines.push('');
  if (brief === null)
    lines.push('  situation briefs: unknown (the session list could not be read)');
  else {
    lines.push(
      `  situation briefs: ${brief.runs_with_brief} run(s) recorded one, ${brief.delivered} delivered to the model`,
    );
    if (brief.runs_with_brief > 0) {
      for (const [field, states] of Object.entries(brief.fields)) {
        const parts = Object.entries(states)
          .filter(([, value]) => value > 0)
          .map(([state, value]) => `${state.replaceAll('_', ' ')} ${value}`);
        lines.push(`    ${field.padEnd(12)} ${parts.join(' · ')}`);
      }
    }
    const without = Object.entries(brief.without_brief)
      .sort((a, b) => b[1] - a[1])
      .map(([surface, value]) => `${surface} ${value}`);
    if (without.length > 0)
      lines.push(`    runs with no brief, by surface: ${without.join(' · ')}`);
  }
  lines.push(...problemsSection(problems), '');
  return lines.join('\n');
}
