import { health } from '@mecha/appraisal-core';
import { isLeft } from '@mecha/errors';
import { type Command, exitCodes, usageError } from '../../command.js';
import { readoutNow } from '../../home.js';
import { flag } from '../../parse-command.js';
import { notReadWhole } from '../../render/format.js';
import { renderHealth } from '../../render/health.js';
import { styleFor } from '../../style.js';
import { json, populationOf, scanPorts, unknownKind } from './shared.js';

export const healthCommand: Command = {
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
    if (isLeft(now)) return usageError(context, this.path, now.left.message);
    const population = populationOf(values, now.right);
    if (isLeft(population)) return usageError(context, this.path, population.left.message);
    const badKind = await unknownKind(context, population.right);
    if (badKind !== undefined) return usageError(context, this.path, badKind);
    const { ports, progress, problems } = scanPorts(context, 'reading runs', population.right);
    const result = await health(ports, population.right);
    progress.done();
    const asJson = flag(values, 'json');
    context.stdout(
      asJson
        ? json({ ...result, not_read_whole: notReadWhole(problems()) })
        : renderHealth(
            result,
            population.right.days,
            problems(),
            styleFor({ isTTY: context.stdoutIsTTY, env: context.env }),
          ),
    );
    return exitCodes.ok;
  },
};
