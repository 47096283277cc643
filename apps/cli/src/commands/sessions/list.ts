import {
  formatValence,
  listSessions,
  type SessionList,
  stripControl,
  stripControlDeep,
} from '@mecha/appraisal-core';
import { isLeft } from '@mecha/errors';
import { type Command, exitCodes, usageError } from '../../command.js';
import { ownerClockFor, readoutNow } from '../../home.js';
import { flag, stringOption, wholeNumber } from '../../parse-command.js';
import { type Clock, notReadWhole, problemsSection } from '../../render/format.js';
import { json, populationOf, scanPorts, unknownKind } from './shared.js';

function listLines(list: SessionList, limit: number, clock: Clock): string[] {
  const shown = list.sessions.slice(0, limit);
  const width = Math.max(0, ...shown.map((row) => row.session_id.length));
  const whereOf = (row: (typeof shown)[number]) =>
    stripControl(
      [row.kind === 'ordinary' ? null : row.kind, row.surface].filter(Boolean).join(' ') || '?',
    );
  // The kind-and-surface column is as wide as its widest entry (`claude-code`, `experiment tui`).
  const whereWidth = Math.max(8, ...shown.map((row) => whereOf(row).length));
  const lines = shown.map((row) => {
    const id = row.session_id.padEnd(width);
    const where = whereOf(row).padEnd(whereWidth);
    const when = clock(row.started_at);
    if (row.state === 'unreadable') {
      return `${id}  ${when}  ${where}  unreadable: ${stripControl(row.reason)}`;
    }
    const reading = row.signed === 0 ? 'silent' : `${row.label} ${formatValence(row.valence)}`;
    return `${id}  ${when}  ${where}  ${`${row.runs} run${row.runs === 1 ? '' : 's'}`.padEnd(7)}  ${reading}${row.state === 'partial' || row.valence.partial ? ' (partial)' : ''}`;
  });
  if (list.sessions.length > shown.length) {
    lines.push(
      `… and ${list.sessions.length - shown.length} more (-n N to show more, --json for all)`,
    );
  }
  if (list.sessions.length === 0) lines.push('No sessions in this window.');
  const hidden = [
    list.tests_hidden > 0 ? `${list.tests_hidden} development hidden (--include-tests)` : null,
    list.experiments_hidden > 0
      ? `${list.experiments_hidden} experiments hidden (--kind experiment)`
      : null,
    list.head_unreadable > 0 ? `${list.head_unreadable} whose first run could not be read` : null,
  ].filter(Boolean);
  if (hidden.length > 0) lines.push(hidden.join(' · '));
  return lines;
}

export const listCommand: Command = {
  path: 'sessions list',
  summary: 'your sessions, newest first: id, kind, start, runs, label and valence',
  help: [
    'Usage: mecha sessions list [--days N] [--kind K] [--include-tests] [-n N] [--json]',
    '',
    'The sessions of a window, newest first, each with its kind and surface, when it began, how',
    'many runs it had, and its derived label and valence (positive and negative apart). A',
    'transcript that cannot be read is listed as unreadable, with no numbers.',
    '',
    'Options:',
    '  --days N          only sessions begun in the last N days',
    '  --kind K          a recorded surface (web, task, tui, …), test or experiment',
    '  --include-tests   list development sessions too',
    '  -n, --number N    how many to list (default 50; --json lists all)',
    '  --json            the list as JSON, with every source not read whole',
    '  --home DIR        the mecha home',
    '',
  ].join('\n'),
  options: {
    days: { type: 'string' },
    kind: { type: 'string' },
    'include-tests': { type: 'boolean' },
    number: { type: 'string', short: 'n' },
    json: { type: 'boolean' },
  },
  takesNoArguments: true,
  async run({ values, context }) {
    const now = readoutNow(context);
    if (isLeft(now)) return usageError(context, this.path, now.left.message);
    const population = populationOf(values, now.right);
    if (isLeft(population)) return usageError(context, this.path, population.left.message);
    const asJson = flag(values, 'json');
    let limit = 50;
    const limitText = stringOption(values, 'number');
    if (limitText !== undefined) {
      if (asJson)
        return usageError(context, this.path, '-n limits the text list; --json lists all');
      const parsed = wholeNumber(limitText, '-n');
      if (isLeft(parsed)) return usageError(context, this.path, parsed.left.message);
      limit = parsed.right;
    }
    const badKind = await unknownKind(context, population.right);
    if (badKind !== undefined) return usageError(context, this.path, badKind);
    const { ports, progress, problems } = scanPorts(context, 'listing sessions', population.right);
    const list = await listSessions(ports, population.right);
    progress.done();
    if (asJson) {
      context.stdout(
        json({
          ...list,
          sessions: stripControlDeep(list.sessions),
          not_read_whole: notReadWhole(problems()),
        }),
      );
    } else {
      context.stdout(
        `${[...listLines(list, limit, ownerClockFor(context)), ...problemsSection(problems())].join('\n')}\n`,
      );
    }
    return list.listed === 'unreadable' ? exitCodes.failure : exitCodes.ok;
  },
};
