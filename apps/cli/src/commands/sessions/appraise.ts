import type { PopulationOptions } from '@mecha/appraisal-core';
import { appraiseCorpus, stripControlDeep } from '@mecha/appraisal-core';
import { isLeft } from '@mecha/errors';
import { probeReadout, readProblems, sessionReadout, textAppraisalReadout } from '@mecha/stores';
import type { CommandContext } from '../../cli-io.js';
import { type Command, exitCodes, failure, refused, usageError } from '../../command.js';
import { openCommandHome, ownerClockFor, readoutNow } from '../../home.js';
import { interruptible } from '../../interruptible.js';
import { flag, stringOption, wholeNumber } from '../../parse-command.js';
import { renderCorpus } from '../../render/corpus.js';
import { notReadWhole, problemsSection } from '../../render/format.js';
import { renderSession, sessionJson, textAppraisalLines } from '../../render/session.js';
import { configuredReplayer } from '../../replayer.js';
import type { Style } from '../../style.js';
import { styleFor } from '../../style.js';
import { showReplayCandidates } from '../replay-candidates.js';
import { json, populationOf, scanPorts, unknownKind, type Values } from './shared.js';

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

/**
 * The combinations `sessions appraise` refuses, checked before anything is read, in the order a
 * person meets them: the message of the first, or undefined.
 */
function appraiseUsageProblem(values: Values, session: string | undefined): string | undefined {
  for (const name of ['max-probes', 'max-appraisals', 'number']) {
    const given = stringOption(values, name);
    if (given === undefined) continue;
    const parsed = wholeNumber(given, name === 'number' ? '-n' : `--${name}`);
    if (!parsed.ok) return parsed.message;
  }
  const text = flag(values, 'text');
  if (text && session !== undefined) {
    return '--text lists every text appraisal; give it no session';
  }
  if (session !== undefined || text) {
    // One session (or the text list) has no window: a flag that would narrow one does nothing.
    const narrowing = ['days', 'kind', 'include-tests'].filter(
      (name) => values[name] !== undefined,
    );
    if (narrowing.length > 0) {
      return `--${narrowing[0]} narrows the corpus readout; ${session !== undefined ? 'one session' : '--text'} has no window to narrow`;
    }
  }
  if (!text && stringOption(values, 'number') !== undefined) {
    return '-n only limits --text';
  }
  for (const name of ['max-probes', 'workspace']) {
    if (stringOption(values, name) !== undefined && !flag(values, 'probe')) {
      return `--${name} only goes with --probe`;
    }
  }
  if (flag(values, 'probe') && (session !== undefined || text)) {
    return `--probe runs over the corpus readout; ${session !== undefined ? 'one session' : '--text'} takes no probe`;
  }
  const replayCandidates = flag(values, 'replay-candidates');
  if (replayCandidates && (session !== undefined || text || flag(values, 'probe'))) {
    return '--replay-candidates orders the window’s sessions; it takes no session, --text or --probe';
  }
  if (!replayCandidates && stringOption(values, 'headroom') !== undefined) {
    return '--headroom only goes with --replay-candidates';
  }
  return undefined;
}

/** `--text`: every text appraisal on record, newest first (or the `-n` newest). */
async function showTextAppraisals(
  context: CommandContext,
  values: Values,
  asJson: boolean,
  style: Style,
): Promise<number> {
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

/** One session: its signed errors with their cites, label, valence and text appraisal. */
async function showSession(
  context: CommandContext,
  path: string,
  session: string,
  asJson: boolean,
  style: Style,
): Promise<number> {
  const { ports, progress, problems } = scanPorts(context, 'reading');
  const found = await sessionReadout(ports, session);
  progress.done();
  if (isLeft(found)) return refused(context, path, found.left);
  const { reading, textAppraisal, counterfactuals } = found.right;
  context.stdout(
    asJson
      ? sessionJson(reading, textAppraisal, problems(), counterfactuals)
      : renderSession(
          reading,
          textAppraisal,
          problems(),
          style,
          ownerClockFor(context),
          counterfactuals,
        ),
  );
  return exitCodes.ok;
}

/** The corpus readout over the window, with the counterfactual pass when a replayer is open. */
async function showCorpus(
  context: CommandContext,
  path: string,
  values: Values,
  population: PopulationOptions,
  replayer: Awaited<ReturnType<typeof configuredReplayer>>,
  asJson: boolean,
  style: Style,
): Promise<number> {
  const probeAsked = flag(values, 'probe');
  const badKind = await unknownKind(context, population);
  if (badKind !== undefined) return usageError(context, path, badKind);
  const { ports, progress, problems } = scanPorts(context, 'appraising', population);
  let result: Awaited<ReturnType<typeof appraiseCorpus>>;
  if (replayer.state === 'open') {
    const ceiling = stringOption(values, 'max-probes');
    try {
      const probed = await interruptible((signal) =>
        probeReadout(ports, replayer.replayer, {
          ...population,
          maxProbes: ceiling === undefined ? 25 : Number(ceiling),
          workspace: stringOption(values, 'workspace') ?? context.cwd,
          homePath: openCommandHome(context).path,
          ...(context.env.HOME === undefined ? {} : { userHome: context.env.HOME }),
          signal,
        }),
      );
      if (probed._tag === 'Left') {
        progress.done();
        return failure(context, path, probed.left.message);
      }
      result = probed.right;
    } finally {
      await replayer.replayer.close();
    }
  } else {
    result = await appraiseCorpus(ports, population);
  }
  progress.done();
  context.stdout(
    asJson
      ? json({ ...result, not_read_whole: notReadWhole(problems()) })
      : renderCorpus(
          result,
          {
            ...(population.days === undefined ? {} : { days: population.days }),
            ...(population.kind === undefined ? {} : { kind: population.kind }),
            includeTests: population.includeTests === true,
            probeAsked,
          },
          problems(),
          style,
        ),
  );
  return exitCodes.ok;
}

export const appraise: Command = {
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
    const session = positionals[0];
    const problem = appraiseUsageProblem(values, session);
    if (problem !== undefined) return usageError(context, path, problem);
    const text = flag(values, 'text');
    if (flag(values, 'replay-candidates')) {
      const badKind = await unknownKind(context, population.options);
      if (badKind !== undefined) return usageError(context, path, badKind);
      return showReplayCandidates(
        context,
        path,
        population.options,
        stringOption(values, 'headroom'),
        flag(values, 'json'),
      );
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

    if (text) return showTextAppraisals(context, values, asJson, style);
    if (session !== undefined) return showSession(context, path, session, asJson, style);
    return showCorpus(context, path, values, population.options, replayer, asJson, style);
  },
};
