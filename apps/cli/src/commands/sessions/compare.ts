import {
  type ComparisonRecord,
  comparePolicies,
  stripControl,
  stripControlDeep,
} from '@mecha/appraisal-core';
import { isLeft } from '@mecha/errors';
import { compareSession } from '@mecha/stores';
import { type Command, exitCodes, failure, usageError } from '../../command.js';
import { openCommandHome } from '../../home.js';
import { interruptible } from '../../interruptible.js';
import { flag, stringOption } from '../../parse-command.js';
import { configuredReplayer } from '../../replayer.js';
import { json } from './shared.js';

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

export const compareCommand: Command = {
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
    const policies: (typeof comparePolicies)[keyof typeof comparePolicies][] = [];
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
    const configured = await configuredReplayer(context);
    if (isLeft(configured)) return failure(context, path, configured.left.message);
    const replayer = configured.right;
    if (replayer === null) {
      return failure(
        context,
        path,
        'no replayer is configured: set [probe] replayer in config.toml ("local-model" or "scripted:PATH"); nothing was replayed',
      );
    }
    try {
      const compared = await interruptible((signal) =>
        compareSession(openCommandHome(context), replayer, {
          session,
          ...(at === undefined ? {} : { at }),
          policies,
          workspace: stringOption(values, 'workspace') ?? context.cwd,
          ...(context.env.HOME === undefined ? {} : { userHome: context.env.HOME }),
          now: new Date(),
          signal,
        }),
      );
      if (compared._tag === 'Left') return failure(context, path, compared.left.message);
      const result = compared.right;
      context.stdout(
        flag(values, 'json')
          ? json({ state: result.state, record: stripControlDeep(result.record) })
          : `${comparisonLines(result.record, result.state).join('\n')}\n`,
      );
      return exitCodes.ok;
    } finally {
      await replayer.close();
    }
  },
};
