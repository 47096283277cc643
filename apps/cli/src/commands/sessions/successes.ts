import { successes } from '@mecha/appraisal-core';
import { isLeft } from '@mecha/errors';
import { type Command, exitCodes, usageError } from '../../command.js';
import { ownerClockFor } from '../../home.js';
import { flag, stringOption, wholeNumber } from '../../parse-command.js';
import { notReadWhole } from '../../render/format.js';
import { renderSuccesses } from '../../render/successes.js';
import { styleFor } from '../../style.js';
import { json, scanPorts } from './shared.js';

export const successesCommand: Command = {
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
      if (isLeft(parsed)) return usageError(context, this.path, parsed.left.message);
      limit = parsed.right;
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
