import {
  type AppraisalPorts,
  appraiseCorpus,
  type ComparisonRecord,
  comparePolicies,
  formatValence,
  health,
  kindsOnRecord,
  listSessions,
  type PopulationOptions,
  type SessionList,
  stripControl,
  stripControlDeep,
  successes,
} from '@mecha/appraisal-core';
import {
  compareSession,
  homePorts,
  probeReadout,
  readProblems,
  sessionReadout,
  textAppraisalReadout,
  withReadLog,
} from '@mecha/stores';
import type { CommandContext } from '../cli-io.js';
import {
  type Command,
  type CommandGroup,
  type CommandInput,
  exitCodes,
  failure,
  usageError,
} from '../command.js';
import { openCommandHome, ownerClockFor, readoutNow } from '../home.js';
import { didYouMean, flag, stringOption, wholeNumber } from '../parse-command.js';
import { type Progress, progressBar } from '../progress.js';
import { withProgress } from '../progress-ports.js';
import { renderCorpus } from '../render/corpus.js';
import { type Clock, notReadWhole, problemsSection } from '../render/format.js';
import { renderHealth } from '../render/health.js';
import { renderSession, sessionJson, textAppraisalLines } from '../render/session.js';
import { renderSuccesses } from '../render/successes.js';
import { configuredReplayer } from '../replayer.js';
import { styleFor } from '../style.js';
import { showReplayCandidates } from './replay-candidates.js';

const kindPattern = /^[a-z][a-z0-9_-]{0,31}$/;

type Values = CommandInput['values'];

/** The population options common to appraise and health, or the usage error. */
function populationOf(
  values: Values,
  now: Date,
):
  | { readonly ok: true; readonly options: PopulationOptions }
  | { readonly ok: false; readonly message: string } {
  const daysText = stringOption(values, 'days');
  let days: number | undefined;
  if (daysText !== undefined) {
    const parsed = wholeNumber(daysText, '--days');
    if (!parsed.ok) return parsed;
    days = parsed.value;
  }
  const kind = stringOption(values, 'kind');
  if (kind !== undefined && !kindPattern.test(kind)) {
    return {
      ok: false,
      message: `--kind takes a recorded surface (web, task, tui, …), test or experiment, not ${JSON.stringify(kind)}`,
    };
  }
  return {
    ok: true,
    options: {
      now,
      ...(days === undefined ? {} : { days }),
      ...(kind === undefined ? {} : { kind }),
      includeTests: flag(values, 'include-tests'),
    },
  };
}

/**
 * A `--kind` no session of this home was recorded under is a usage error naming the kinds
 * there are, never a silent empty readout. An unlistable session store is not checked here;
 * the readout itself reports it.
 */
async function unknownKind(
  context: CommandContext,
  options: PopulationOptions,
): Promise<string | undefined> {
  if (options.kind === undefined) return undefined;
  const kinds = await kindsOnRecord(homePorts(openCommandHome(context)).sessions);
  if (kinds.state === 'unreadable' || kinds.records.includes(options.kind)) return undefined;
  return `--kind ${JSON.stringify(options.kind)}: no session in this home was recorded under it${didYouMean(options.kind, kinds.records)}; the kinds here are ${kinds.records.join(', ')}`;
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The home's ports, logged (to name what could not be read) and, on a terminal, with a bar. */
function scanPorts(context: CommandContext, label: string, population?: PopulationOptions) {
  const progress: Progress = progressBar({
    write: context.stderr,
    isTTY: context.stderrIsTTY,
    label,
  });
  const logged = withReadLog(homePorts(openCommandHome(context)));
  // Counting for a bar costs a second pass over the listing: only where a bar may be drawn.
  const ports: AppraisalPorts = context.stderrIsTTY
    ? withProgress(logged.ports, progress, population)
    : logged.ports;
  return { ports, progress, problems: logged.problems };
}

const appraiseHelp = [
  'Usage: mecha sessions appraise [--days N] [--kind K] [--include-tests] [--json] [SESSION]',
  '       mecha sessions appraise --text [-n N] [--json]',
  '       mecha sessions appraise --replay-candidates [--headroom FILE] [--days N] [--json]',
  '',
  'The free readout over your sessions, derived from the records every time and stored nowhere:',
  'the valence first (positive and negative summed apart, never netted), then the labels, the',
  'line saying which labels the free readout can reach, and every count. A source that could',
  'not be read makes the readout partial and its counts unknown (null in JSON), never 0.',
  '',
  "With SESSION (an id or a unique prefix): that session's signed errors with their cites, its",
  'label, valence and text appraisal. With --text: every text appraisal on record, newest first.',
  '',
  'Options:',
  '  --days N          only sessions begun in the last N days',
  '  --kind K          a recorded surface (web, task, tui, …); test selects development',
  '                    sessions (implies --include-tests), experiment selects experiments',
  '  --include-tests   count development sessions (MECHA_SESSION_KIND=test) too',
  '  --json            the readout as JSON (see docs/appraisal.md for its fields)',
  '  --text            print every text appraisal on record, newest first',
  '  -n, --number N    with --text: only the N newest',
  '  --probe           the paid counterfactual pass: replays each steer and denial with the',
  '                    intervention removed, through the replayer [probe] replayer names in',
  '                    config.toml (none configured: says so and spends nothing)',
  '  --max-probes N    the ceiling on replays for --probe (default 25)',
  '  --workspace DIR   the directory the replays are jailed to (default: the current one);',
  '                    never your home directory or one that covers the mecha home',
  '  --replay-candidates',
  "                    the window's sessions in the order replay selection takes them: the",
  "                    harness's metric headroom first, ties by the highest-ranked charter",
  '                    line their evidence is attributed to; never by label or valence',
  '  --headroom FILE   with --replay-candidates: a JSON object {"SESSION": NUMBER, …} of',
  '                    headroom; only the sessions it names are candidates',
  '  --appraise, --max-appraisals N',
  '                    retired: accepted so scripts keep running; they do nothing',
  '  --home DIR        the mecha home',
  '',
  'MECHA_NOW=<ISO time> takes the readout as of that moment (to reproduce one).',
  '',
].join('\n');

const appraise: Command = {
  path: 'sessions appraise',
  summary: 'the free appraisal readout over your sessions, or one session',
  help: appraiseHelp,
  options: {
    days: { type: 'string' },
    kind: { type: 'string' },
    'include-tests': { type: 'boolean' },
    json: { type: 'boolean' },
    text: { type: 'boolean' },
    number: { type: 'string', short: 'n' },
    probe: { type: 'boolean' },
    'max-probes': { type: 'string' },
    workspace: { type: 'string' },
    appraise: { type: 'boolean' },
    'max-appraisals': { type: 'string' },
    'replay-candidates': { type: 'boolean' },
    headroom: { type: 'string' },
  },
  async run({ values, positionals, context }) {
    const path = this.path;
    if (positionals.length > 1)
      return usageError(context, path, `unexpected argument '${positionals[1]}'`);
    const now = readoutNow(context);
    if (!now.ok) return usageError(context, path, now.message);
    const population = populationOf(values, now.now);
    if (!population.ok) return usageError(context, path, population.message);
    for (const name of ['max-probes', 'max-appraisals', 'number']) {
      const text = stringOption(values, name);
      if (text === undefined) continue;
      const parsed = wholeNumber(text, name === 'number' ? '-n' : `--${name}`);
      if (!parsed.ok) return usageError(context, path, parsed.message);
    }
    const text = flag(values, 'text');
    const session = positionals[0];
    if (text && session !== undefined) {
      return usageError(context, path, '--text lists every text appraisal; give it no session');
    }
    if (session !== undefined || text) {
      // One session (or the text list) has no window: a flag that would narrow one does nothing.
      const narrowing = ['days', 'kind', 'include-tests'].filter(
        (name) => values[name] !== undefined,
      );
      if (narrowing.length > 0) {
        return usageError(
          context,
          path,
          `--${narrowing[0]} narrows the corpus readout; ${session !== undefined ? 'one session' : '--text'} has no window to narrow`,
        );
      }
    }
    if (!text && stringOption(values, 'number') !== undefined) {
      return usageError(context, path, '-n only limits --text');
    }
    for (const name of ['max-probes', 'workspace']) {
      if (stringOption(values, name) !== undefined && !flag(values, 'probe')) {
        return usageError(context, path, `--${name} only goes with --probe`);
      }
    }
    if (flag(values, 'probe') && (session !== undefined || text)) {
      return usageError(
        context,
        path,
        `--probe runs over the corpus readout; ${session !== undefined ? 'one session' : '--text'} takes no probe`,
      );
    }
    const headroom = stringOption(values, 'headroom');
    if (flag(values, 'replay-candidates')) {
      if (session !== undefined || text || flag(values, 'probe')) {
        return usageError(
          context,
          path,
          '--replay-candidates orders the window’s sessions; it takes no session, --text or --probe',
        );
      }
      const badKind = await unknownKind(context, population.options);
      if (badKind !== undefined) return usageError(context, path, badKind);
      return showReplayCandidates(
        context,
        path,
        population.options,
        headroom,
        flag(values, 'json'),
      );
    }
    if (headroom !== undefined) {
      return usageError(context, path, '--headroom only goes with --replay-candidates');
    }
    if (flag(values, 'appraise') || stringOption(values, 'max-appraisals') !== undefined) {
      context.stderr(
        'mecha sessions appraise: --appraise and --max-appraisals are retired and do nothing: the counts-only appraiser was replaced by the text appraisal (read it with `mecha sessions appraise <session>`)\n',
      );
    }
    const probeAsked = flag(values, 'probe');
    const replayer = probeAsked ? await configuredReplayer(context) : ({ state: 'none' } as const);
    if (replayer.state === 'refused') return failure(context, path, replayer.message);
    if (probeAsked && replayer.state === 'none') {
      context.stderr(
        'mecha sessions appraise: --probe: no replayer is configured ([probe] replayer in config.toml), so the counterfactual pass did not run and nothing was spent\n',
      );
    }
    const asJson = flag(values, 'json');
    const style = styleFor({ isTTY: context.stdoutIsTTY && !asJson, env: context.env });

    if (text) {
      const limitText = stringOption(values, 'number');
      const limit = limitText === undefined ? Number.POSITIVE_INFINITY : Number(limitText);
      const readout = await textAppraisalReadout(openCommandHome(context), { limit });
      const read = readout.source;
      const records = readout.newest;
      if (asJson) {
        context.stdout(
          json({
            read: read.state === 'read',
            ...(read.state === 'unreadable' ? { reason: read.reason } : {}),
            ...(read.state === 'partial' ? { skipped: read.skipped.length } : {}),
            records: read.state === 'unreadable' ? null : stripControlDeep(records),
            not_read_whole: notReadWhole(readProblems('text appraisals', read)),
          }),
        );
        return exitCodes.ok;
      }
      if (read.state === 'unreadable') {
        context.stdout(`Text appraisals: the store could not be read (${read.reason}).\n`);
        return exitCodes.ok;
      }
      const total = readout.total ?? 0;
      const lines = [
        style.bold(
          `Text appraisals on record: ${total}${records.length < total ? ` (the ${records.length} newest shown)` : ''}${read.state === 'partial' ? ' (partial)' : ''}`,
        ),
      ];
      if (total === 0) lines.push('None yet: mecha distill writes one per finished session.');
      const clock = ownerClockFor(context);
      for (const record of records) lines.push('', ...textAppraisalLines(record, style, clock));
      if (read.state === 'partial') {
        lines.push(...problemsSection(readProblems('text appraisals', read)));
      }
      context.stdout(`${lines.join('\n')}\n`);
      return exitCodes.ok;
    }

    if (session !== undefined) {
      const { ports, progress, problems } = scanPorts(context, 'reading');
      const found = await sessionReadout(ports, session);
      progress.done();
      if (found.state === 'refused') return failure(context, path, found.message);
      context.stdout(
        asJson
          ? sessionJson(found.reading, found.textAppraisal, problems(), found.counterfactuals)
          : renderSession(
              found.reading,
              found.textAppraisal,
              problems(),
              style,
              ownerClockFor(context),
              found.counterfactuals,
            ),
      );
      return exitCodes.ok;
    }

    const badKind = await unknownKind(context, population.options);
    if (badKind !== undefined) return usageError(context, path, badKind);
    const { ports, progress, problems } = scanPorts(context, 'appraising', population.options);
    let result: Awaited<ReturnType<typeof appraiseCorpus>>;
    if (replayer.state === 'open') {
      const ceiling = stringOption(values, 'max-probes');
      const controller = new AbortController();
      const interrupt = () => controller.abort();
      process.once('SIGINT', interrupt);
      try {
        const probed = await probeReadout(ports, replayer.replayer, {
          ...population.options,
          maxProbes: ceiling === undefined ? 25 : Number(ceiling),
          workspace: stringOption(values, 'workspace') ?? context.cwd,
          homePath: openCommandHome(context).path,
          ...(context.env.HOME === undefined ? {} : { userHome: context.env.HOME }),
          signal: controller.signal,
        });
        if (probed.state === 'refused') {
          progress.done();
          return failure(context, path, probed.message);
        }
        result = probed.result;
      } finally {
        process.off('SIGINT', interrupt);
        await replayer.replayer.close();
      }
    } else {
      result = await appraiseCorpus(ports, population.options);
    }
    progress.done();
    context.stdout(
      asJson
        ? json({ ...result, not_read_whole: notReadWhole(problems()) })
        : renderCorpus(
            result,
            {
              ...(population.options.days === undefined ? {} : { days: population.options.days }),
              ...(population.options.kind === undefined ? {} : { kind: population.options.kind }),
              includeTests: population.options.includeTests === true,
              probeAsked,
            },
            problems(),
            style,
          ),
    );
    return exitCodes.ok;
  },
};

const healthCommand: Command = {
  path: 'sessions health',
  summary: 'run-level counters: stops, compaction, goal drift, null and reopened steps, boredom',
  help: [
    'Usage: mecha sessions health [--days N] [--kind K] [--include-tests] [--json]',
    '',
    'Per-run counters over your sessions (a resumed run is its own run): how runs stopped, how',
    'often they compacted, goal drift, null steps, reopened steps, boredom notices, and how',
    'complete the recorded situation briefs are. A counter no run recorded is unknown, never 0.',
    '',
    'Options:',
    '  --days N          only sessions begun in the last N days',
    '  --kind K          a recorded surface, test or experiment',
    '  --include-tests   count development sessions too',
    '  --json            the readout as JSON (see docs/appraisal.md)',
    '  --home DIR        the mecha home',
    '',
  ].join('\n'),
  options: {
    days: { type: 'string' },
    kind: { type: 'string' },
    'include-tests': { type: 'boolean' },
    json: { type: 'boolean' },
  },
  takesNoArguments: true,
  async run({ values, context }) {
    const now = readoutNow(context);
    if (!now.ok) return usageError(context, this.path, now.message);
    const population = populationOf(values, now.now);
    if (!population.ok) return usageError(context, this.path, population.message);
    const badKind = await unknownKind(context, population.options);
    if (badKind !== undefined) return usageError(context, this.path, badKind);
    const { ports, progress, problems } = scanPorts(context, 'reading runs', population.options);
    const result = await health(ports, population.options);
    progress.done();
    const asJson = flag(values, 'json');
    context.stdout(
      asJson
        ? json({ ...result, not_read_whole: notReadWhole(problems()) })
        : renderHealth(
            result,
            population.options.days,
            problems(),
            styleFor({ isTTY: context.stdoutIsTTY, env: context.env }),
          ),
    );
    return exitCodes.ok;
  },
};

const successesCommand: Command = {
  path: 'sessions successes',
  summary: 'what went right, as your own acts say: the set, exemplars, planning examples',
  help: [
    'Usage: mecha sessions successes [--exemplars | --examples] [--include-tests] [--json] [-n N]',
    '',
    'What went right, read fresh from your acts: drafts you sent as mecha wrote them, tasks you',
    'closed done, workflows you closed after their check passed, questions you answered after',
    'which the work finished. A reopen withdraws a success; one that cannot be confirmed is',
    'unknown and never counted; those in development sessions are hidden.',
    '',
    'Options:',
    '  --exemplars       each draft you sent unchanged, as sent (no run is shown them yet)',
    '  --examples        the planning examples successes would lend, and why the rest lend none',
    '  --include-tests   count development sessions too',
    '  --json            the readout as JSON',
    '  -n, --number N    how many of the set to list (default 20)',
    '  --home DIR        the mecha home',
    '',
  ].join('\n'),
  options: {
    exemplars: { type: 'boolean' },
    examples: { type: 'boolean' },
    'include-tests': { type: 'boolean' },
    json: { type: 'boolean' },
    number: { type: 'string', short: 'n' },
  },
  takesNoArguments: true,
  async run({ values, context }) {
    const exemplars = flag(values, 'exemplars');
    const examples = flag(values, 'examples');
    if (exemplars && examples)
      return usageError(context, this.path, 'choose --exemplars or --examples, not both');
    let limit = 20;
    const limitText = stringOption(values, 'number');
    if (limitText !== undefined && flag(values, 'json')) {
      return usageError(context, this.path, '-n limits the text list; --json gives the whole set');
    }
    if (limitText !== undefined) {
      const parsed = wholeNumber(limitText, '-n');
      if (!parsed.ok) return usageError(context, this.path, parsed.message);
      limit = parsed.value;
    }
    const { ports, progress, problems } = scanPorts(context, 'reading successes');
    const result = await successes(ports, {
      includeTests: flag(values, 'include-tests'),
      examples,
    });
    progress.done();
    context.stdout(
      flag(values, 'json')
        ? json({ ...result, not_read_whole: notReadWhole(problems()) })
        : renderSuccesses(
            result,
            { exemplars, examples, limit, clock: ownerClockFor(context) },
            problems(),
            styleFor({ isTTY: context.stdoutIsTTY, env: context.env }),
          ),
    );
    return exitCodes.ok;
  },
};

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

const listCommand: Command = {
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
    if (!now.ok) return usageError(context, this.path, now.message);
    const population = populationOf(values, now.now);
    if (!population.ok) return usageError(context, this.path, population.message);
    const asJson = flag(values, 'json');
    let limit = 50;
    const limitText = stringOption(values, 'number');
    if (limitText !== undefined) {
      if (asJson)
        return usageError(context, this.path, '-n limits the text list; --json lists all');
      const parsed = wholeNumber(limitText, '-n');
      if (!parsed.ok) return usageError(context, this.path, parsed.message);
      limit = parsed.value;
    }
    const badKind = await unknownKind(context, population.options);
    if (badKind !== undefined) return usageError(context, this.path, badKind);
    const { ports, progress, problems } = scanPorts(
      context,
      'listing sessions',
      population.options,
    );
    const list = await listSessions(ports, population.options);
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

const armWords: Record<NonNullable<ComparisonRecord['arms']>[number]['result'], string> = {
  did_refused: 'did what the owner refused',
  did_not: 'did not',
  ungraded: 'could not be graded (the arm did not run to an end)',
};

function comparisonLines(record: ComparisonRecord, state: 'recorded' | 'already'): string[] {
  const point = record.point;
  const where = [
    point?.turn === undefined ? undefined : `message ${point.turn}`,
    point?.call === undefined ? undefined : `call ${point.call}`,
    point?.draft_id === undefined ? undefined : `draft ${point.draft_id}`,
  ].filter((part) => part !== undefined);
  return [
    `comparison ${record.comparison_id} · ${record.moment.replace('_', ' ')}${where.length === 0 ? '' : ` (${where.join(', ')})`} · ${record.verdict}${record.decided_by === undefined ? '' : ` by the ${record.validator?.replace('_', '-') ?? ''} validator`}`,
    ...(record.arms ?? []).map(
      (arm) =>
        `  ${arm.policy.padEnd(9)} ${stripControl(armWords[arm.result])}${arm.prompt_digest === undefined ? '' : `  (prompt ${arm.prompt_digest})`}`,
    ),
    record.verdict === 'unposed'
      ? '  no structural check could pose this moment, so nothing was replayed'
      : record.model === undefined
        ? '  model: not recorded'
        : `  model: ${stripControl(record.model)}`,
    state === 'already'
      ? 'Already decided and on record: nothing was replayed and nothing written.'
      : 'Recorded in appraisals/comparisons.jsonl.',
  ];
}

const compareCommand: Command = {
  path: 'sessions compare',
  summary:
    'replay a moment you decided under a few policies, and record which did what you refused',
  help: [
    'Usage: mecha sessions compare SESSION [--at MOMENT] [--policy P]... [--workspace DIR] [--json]',
    '',
    'Replays a moment you already decided — a steer, a denial, a draft you rewrote or rejected —',
    'under a few policies, through the replayer [probe] replayer names in config.toml, and checks',
    'each arm with the validator that fits the moment (for a rejected draft: did the arm draft',
    'the text you rejected). The comparison is recorded once in appraisals/comparisons.jsonl; a',
    'decided one is never replayed again. A separated one becomes a counterfactual reflection on',
    'the next mecha distill pass.',
    '',
    'Options:',
    '  --at MOMENT       steer:TURN, deny:TURN or draft:ID (default: the newest decided moment)',
    '  --policy P        covering (the system prompt that covered the moment), first (the',
    "                    session's first) or none; repeat it (default: covering and none)",
    '  --workspace DIR   the directory the replays are jailed to (default: the current one)',
    '  --json            the comparison record as JSON',
    '  --home DIR        the mecha home',
    '',
  ].join('\n'),
  options: {
    at: { type: 'string' },
    policy: { type: 'string', multiple: true },
    workspace: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run({ values, positionals, context }) {
    const path = this.path;
    const session = positionals[0];
    if (session === undefined)
      return usageError(context, path, 'name a session (an id or a unique prefix)');
    if (positionals.length > 1)
      return usageError(context, path, `unexpected argument '${positionals[1]}'`);
    const asked = Array.isArray(values.policy)
      ? values.policy.filter((value): value is string => typeof value === 'string')
      : [];
    const names = asked.length === 0 ? ['covering', 'none'] : [...new Set(asked)];
    const policies = [];
    for (const name of names) {
      if (!(name in comparePolicies)) {
        return usageError(
          context,
          path,
          `--policy takes covering, first or none, not ${JSON.stringify(name)}`,
        );
      }
      policies.push(comparePolicies[name as keyof typeof comparePolicies]);
    }
    if (policies.length < 2)
      return usageError(context, path, 'a comparison needs at least two --policy values');
    const at = stringOption(values, 'at');
    if (at !== undefined && !/^(steer|deny):\d+$|^draft:\S+$/.test(at)) {
      return usageError(
        context,
        path,
        `--at takes steer:TURN, deny:TURN or draft:ID, not ${JSON.stringify(at)}`,
      );
    }
    const replayer = await configuredReplayer(context);
    if (replayer.state === 'refused') return failure(context, path, replayer.message);
    if (replayer.state === 'none') {
      return failure(
        context,
        path,
        'no replayer is configured: set [probe] replayer in config.toml ("local-model" or "scripted:PATH"); nothing was replayed',
      );
    }
    const controller = new AbortController();
    const interrupt = () => controller.abort();
    process.once('SIGINT', interrupt);
    try {
      const result = await compareSession(openCommandHome(context), replayer.replayer, {
        session,
        ...(at === undefined ? {} : { at }),
        policies,
        workspace: stringOption(values, 'workspace') ?? context.cwd,
        ...(context.env.HOME === undefined ? {} : { userHome: context.env.HOME }),
        now: new Date(),
        signal: controller.signal,
      });
      if (result.state === 'refused') return failure(context, path, result.message);
      context.stdout(
        flag(values, 'json')
          ? json({ state: result.state, record: stripControlDeep(result.record) })
          : `${comparisonLines(result.record, result.state).join('\n')}\n`,
      );
      return exitCodes.ok;
    } finally {
      process.off('SIGINT', interrupt);
      await replayer.replayer.close();
    }
  },
};

/** `mecha sessions`: the free readers over the session store and everything linked to it. */
export const sessionsGroup: CommandGroup = {
  name: 'sessions',
  summary: 'readouts derived from your records, never stored',
  commands: [listCommand, appraise, compareCommand, healthCommand, successesCommand],
};
