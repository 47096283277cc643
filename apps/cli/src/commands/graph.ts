import { stripControl, stripControlDeep } from '@mecha/appraisal-core';
import type { GraphOwnerRequest } from '@mecha/distill';
import { isLeft } from '@mecha/errors';
import type { CommandContext } from '../cli-io.js';
import { type Command, type CommandGroup, exitCodes, refused, usageError } from '../command.js';
import { homePath } from '../home.js';
import { flag, type OptionValues, stringOption, wholeNumberOption } from '../parse-command.js';

const serverOption = { server: { type: 'string' }, json: { type: 'boolean' } } as const;
const serverHelp = [
  "  --server NAME   the [[mcp]] server holding the graph (default 'graph')",
  '  --json          the graph’s replies as JSON',
  '  --home DIR      the mecha home',
];

/**
 * Runs one owner act through @mecha/distill's `actOnGraph` (the graph's owner tools over MCP)
 * and renders it: the lines, or the graph's replies with --json. Graph text is third-party
 * content, so control characters are stripped from everything printed.
 */
async function act(
  path: string,
  values: OptionValues,
  context: CommandContext,
  request: GraphOwnerRequest,
): Promise<number> {
  const server = stringOption(values, 'server');
  if (server === '') return usageError(context, path, '--server needs a name');
  const [{ actOnGraph }, { openHome }, { runnableGraphServer }] = await Promise.all([
    import('@mecha/distill'),
    import('@mecha/stores'),
    import('../graph-server-path.js'),
  ]);
  const result = await actOnGraph(openHome(homePath(context)), request, {
    env: context.env,
    resolveServer: runnableGraphServer,
    ...(server === undefined ? {} : { server }),
  });
  if (result._tag === 'Left') return refused(context, path, result.left);
  const done = result.right;
  if (flag(values, 'json'))
    context.stdout(`${JSON.stringify(stripControlDeep(done.data), null, 2)}\n`);
  else context.stdout(`${done.lines.map((line) => stripControl(line)).join('\n')}\n`);
  return exitCodes.ok;
}

const review: Command = {
  path: 'graph review',
  summary: 'candidate facts and corrections waiting for you, most salient first',
  help: [
    'Usage: mecha graph review [--limit N] [--server NAME] [--json]',
    '',
    'Lists the review queue: candidate facts the extractor proposed from distilled episodes, most',
    'salient first, each with the sessions it came from, their taint and its trust; then the',
    'corrections no single belief matched, or that were not grounded in your own words. Nothing',
    'becomes a belief until you approve it.',
    '',
    'Options:',
    '  --limit N       at most N of each (default 20, at most 100)',
    ...serverHelp,
    '',
  ].join('\n'),
  options: { ...serverOption, limit: { type: 'string' } },
  takesNoArguments: true,
  run({ values, context }) {
    const limit = wholeNumberOption(values, 'limit');
    if (isLeft(limit)) return Promise.resolve(usageError(context, this.path, limit.left.message));
    return act(this.path, values, context, {
      act: 'review',
      ...(limit.right === undefined ? {} : { limit: limit.right }),
    });
  },
};

function decision(word: 'approve' | 'deny'): Command {
  const approve = word === 'approve';
  return {
    path: `graph ${word}`,
    summary: approve
      ? 'make a candidate fact a belief, or apply a waiting correction'
      : 'reject a candidate fact for good, or dismiss a waiting correction',
    help: [
      `Usage: mecha graph ${word} ID${approve ? ' [--fact ID]' : ''} [--server NAME] [--json]`,
      '',
      approve
        ? 'f12 (or 12): the candidate fact becomes a belief that kg_search finds as accepted.\nc3: the waiting correction is applied to the belief --fact names (or to its one candidate):\nthat belief is closed and the replacement staged for review.'
        : 'f12 (or 12): the candidate is rejected and a denial recorded, so nothing proposes it again.\nc3: the waiting correction is dismissed and changes nothing.',
      '',
      'Options:',
      ...(approve ? ['  --fact ID       the belief a correction corrects (f12 or 12)'] : []),
      ...serverHelp,
      '',
    ].join('\n'),
    options: { ...serverOption, ...(approve ? { fact: { type: 'string' } } : {}) },
    run({ values, positionals, context }) {
      const [id, extra] = positionals;
      if (id === undefined)
        return Promise.resolve(
          usageError(context, this.path, 'name the ID to decide, as mecha graph review lists it'),
        );
      if (extra !== undefined)
        return Promise.resolve(usageError(context, this.path, `unexpected argument '${extra}'`));
      let factId: number | undefined;
      const factText = stringOption(values, 'fact');
      if (factText !== undefined) {
        const match = /^f?([1-9]\d{0,14})$/i.exec(factText.trim());
        if (match?.[1] === undefined)
          return Promise.resolve(
            usageError(context, this.path, `--fact needs a fact id such as f12, not '${factText}'`),
          );
        factId = Number(match[1]);
      }
      return act(this.path, values, context, {
        act: word,
        id,
        ...(factId === undefined ? {} : { factId }),
      });
    },
  };
}

const redact: Command = {
  path: 'graph redact',
  summary: "take one session's episode and corrections out of the graph",
  help: [
    'Usage: mecha graph redact SESSION [--dry-run] [--server NAME] [--json]',
    '       mecha graph redact --source SOURCE [--dry-run]',
    '',
    "Takes a distilled session's episode and corrections out of the graph (source agent:mecha):",
    'their support is dropped, facts left with no support are closed, and the episode becomes a',
    'tombstone whose key is never reused. --source takes out every item of one source.',
    '',
    'Options:',
    '  --source NAME   the source set (default agent:mecha, with SESSION)',
    '  --dry-run       say what would change and change nothing',
    ...serverHelp,
    '',
  ].join('\n'),
  options: { ...serverOption, source: { type: 'string' }, 'dry-run': { type: 'boolean' } },
  run({ values, positionals, context }) {
    const [sessionId, extra] = positionals;
    if (extra !== undefined)
      return Promise.resolve(usageError(context, this.path, `unexpected argument '${extra}'`));
    const source = stringOption(values, 'source');
    if (sessionId === undefined && source === undefined)
      return Promise.resolve(
        usageError(context, this.path, 'name the session to redact, or --source'),
      );
    return act(this.path, values, context, {
      act: 'redact',
      ...(sessionId === undefined ? {} : { sessionId }),
      ...(source === undefined ? {} : { source }),
      dryRun: flag(values, 'dry-run'),
    });
  },
};

const search: Command = {
  path: 'graph search',
  summary: 'current facts whose text contains the words',
  help: [
    'Usage: mecha graph search WORDS... [--limit N] [--server NAME] [--json]',
    '',
    'Current facts (candidates and beliefs) whose text contains WORDS, newest first, with their',
    'status, trust and the sessions behind them.',
    '',
    'Options:',
    '  --limit N       at most N (default 20, at most 100)',
    ...serverHelp,
    '',
  ].join('\n'),
  options: { ...serverOption, limit: { type: 'string' } },
  run({ values, positionals, context }) {
    const query = positionals.join(' ').trim();
    if (query === '')
      return Promise.resolve(usageError(context, this.path, 'give the words to search for'));
    const limit = wholeNumberOption(values, 'limit');
    if (isLeft(limit)) return Promise.resolve(usageError(context, this.path, limit.left.message));
    return act(this.path, values, context, {
      act: 'search',
      query,
      ...(limit.right === undefined ? {} : { limit: limit.right }),
    });
  },
};

const show: Command = {
  path: 'graph show',
  summary: 'everything the graph holds about one entity, closed facts too',
  help: [
    'Usage: mecha graph show ENTITY [--server NAME] [--json]',
    '',
    'Every fact whose subject is ENTITY (matched whole, case-insensitive): candidates, beliefs and',
    'the ones closed by a correction, denied or rejected, with where each came from.',
    '',
    'Options:',
    ...serverHelp,
    '',
  ].join('\n'),
  options: serverOption,
  run({ values, positionals, context }) {
    const entity = positionals.join(' ').trim();
    if (entity === '')
      return Promise.resolve(usageError(context, this.path, 'name the entity to show'));
    return act(this.path, values, context, { act: 'show', entity });
  },
};

const gossip: Command = {
  path: 'gossip',
  summary: 'the probe a surprise seeds: what the graph holds about someone, and where it was wrong',
  help: [
    'Usage: mecha gossip --entity WHO [--server NAME] [--json]',
    '',
    'Gathers, read-only, what the knowledge graph holds about WHO: current facts, closed ones,',
    'facts that mention WHO, and the surprises sessions recorded about WHO (the graph said one',
    'thing, the session found another). mecha distill prints this command beside each surprise;',
    'nothing runs it automatically. What it shows is third-party content: check the sources.',
    '',
    'Options:',
    '  --entity WHO    the person, project or organisation to probe',
    ...serverHelp,
    '',
  ].join('\n'),
  options: { ...serverOption, entity: { type: 'string' } },
  takesNoArguments: true,
  run({ values, context }) {
    const entity = stringOption(values, 'entity')?.trim();
    if (entity === undefined || entity === '') {
      return Promise.resolve(usageError(context, this.path, 'name who to probe with --entity WHO'));
    }
    return act(this.path, values, context, { act: 'gossip', entity });
  },
};

/** `mecha gossip --entity WHO`: the probe a surprise seeds, through the graph's tools. */
export const gossipGroup: CommandGroup = {
  name: 'gossip',
  summary: gossip.summary,
  fallback: gossip,
  commands: [],
};

/** `mecha graph`: the owner's review of the knowledge graph, through its owner tools over MCP. */
export const graphGroup: CommandGroup = {
  name: 'graph',
  summary: 'review what distillation proposed: approve, deny, redact, search, show',
  commands: [review, decision('approve'), decision('deny'), redact, search, show],
};
