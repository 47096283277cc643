import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppraisalLimits, FlagSwitches } from '@mecha/gpu-appraiser';
import { type Command, exitCodes, failure, usageError } from '../command.js';
import { homePath } from '../home.js';
import { flag, stringOption } from '../parse-command.js';
import { registerServedHome } from '../served-model.js';
import {
  controlJson,
  controlLines,
  limitOptions,
  print,
  statusLines,
  withAppraiser,
} from './appraiser-shared.js';

// `mecha appraiser on|off|status|limits|pause|stop|resume|hold|release|import`: the controls.

/** The flags `--only` can name. */
const flagNames = ['writes', 'recall', 'background'] as const;

export function setting(path: string, summary: string, which: 'on' | 'off'): Command {
  return {
    path,
    summary,
    help: [
      `Usage: mecha ${path} [--background | --only writes|recall|background] [--json]`,
      '',
      which === 'on'
        ? "Turns appraisal writes and recall defaults on, keeping the background setting (with\n--background, background work too, and the home is recorded for the background ticks of\n`mecha appraiser serve`, from whichever home it serves the machine's model)."
        : 'Turns appraisal writes, recall defaults and background work off (with --background, only\nbackground work). Existing evidence stays and can still be recalled.',
      `With --only FLAG, only that flag (writes=1, recall=2, background=4) is turned ${which}; the`,
      'others keep their setting.',
      'The setting is pending until it is applied at the next quiet boundary (add, run, retry).',
      '',
      'Options:',
      '  --background    only (off) or also (on) background work',
      `  --only FLAG     turn only writes, recall (defaults) or background ${which}`,
      '  --json          the control as JSON',
      '  --home DIR      the mecha home',
      '',
    ].join('\n'),
    options: {
      background: { type: 'boolean' },
      only: { type: 'string' },
      json: { type: 'boolean' },
    },
    takesNoArguments: true,
    async run({ values, context }) {
      const only = stringOption(values, 'only');
      const background = flag(values, 'background');
      if (only !== undefined) {
        if (background)
          return usageError(context, path, '--only and --background do not go together');
        if (!(flagNames as readonly string[]).includes(only)) {
          return usageError(
            context,
            path,
            `--only takes writes, recall or background, not ${JSON.stringify(only)}`,
          );
        }
      }
      const switches: FlagSwitches | undefined =
        only === undefined ? undefined : { [only as (typeof flagNames)[number]]: which === 'on' };
      if (which === 'on' && (background || only === 'background')) {
        // Background work of this home is done by `mecha appraiser serve`, whichever home it was
        // started from, when it holds this home's GGUF: the home asks for its ticks here.
        const { deviceLeaseDirectory } = await import('@mecha/local-model');
        const home = homePath(context);
        registerServedHome(deviceLeaseDirectory(home, context.env), home);
      }
      return withAppraiser(context, this.path, (appraiser) => {
        // `on --background` is `on`, then background on; `off --background` only background off.
        if (!switches && which === 'on' && background) appraiser.setAppraisal('on');
        const result = switches
          ? appraiser.setAppraisal(switches)
          : which === 'on'
            ? appraiser.setAppraisal(background ? { background: true } : 'on')
            : appraiser.setAppraisal(background ? { background: false } : 'off');
        print(context, flag(values, 'json'), controlJson(result), () => controlLines(result));
        return exitCodes.ok;
      });
    },
  };
}

export const status: Command = {
  path: 'appraiser status',
  summary: 'the settings, pending controls, queue and recovery',
  help: [
    'Usage: mecha appraiser status [--json]',
    '',
    'Shows the applied flags and policy, any control still pending, the queue by state, the',
    'memory and what startup recovery found in the journal. Reads only.',
    '',
    'Options:',
    '  --json          the status as JSON',
    '  --home DIR      the mecha home',
    '',
  ].join('\n'),
  options: { json: { type: 'boolean' } },
  takesNoArguments: true,
  async run({ values, context }) {
    const { appraiserStatusAt } = await import('@mecha/gpu-appraiser');
    const current = appraiserStatusAt(join(homePath(context), 'appraiser'));
    print(context, flag(values, 'json'), current, () => [
      ...statusLines(current),
      ...(current.memory === 'absent'
        ? [
            "appraiser/memory.sqlite does not exist yet: these are a new memory's settings; 'mecha appraiser add' creates it",
          ]
        : []),
    ]);
    return exitCodes.ok;
  },
};

export const limits: Command = {
  path: 'appraiser limits',
  summary: 'show or set the work limits (pending until a quiet boundary)',
  help: [
    'Usage: mecha appraiser limits [--pages N] [--tokens N] [--ticks N] [--rows N] [--prompt-bytes N]',
    '                              [--output-bytes N] [--recall-floor N] [--recall-priority N] [--json]',
    '',
    'Without options, shows the limits (pending controls included) with the range each accepts.',
    'With options, records a new limits control: every value is checked at once, a refusal names',
    'each bad one and changes nothing (exit 1); accepted limits are pending until the next quiet',
    'boundary and cancel a running appraisal, here or in another process.',
    '',
    'Options:',
    '  --pages N             key/value pages per sequence (positive)',
    '  --tokens N            output tokens per call (1–4096)',
    '  --ticks N             model calls per run (positive)',
    '  --rows N              sources per run (1–64)',
    '  --prompt-bytes N      prompt bytes; a larger prompt is refused before any call (positive)',
    '  --output-bytes N      answer bytes per call (1–4096)',
    '  --recall-floor N      recall similarity floor (0–1000000)',
    '  --recall-priority N   default recall priority (0–1000000)',
    '  --json                the configuration, or the control and its answer, as JSON',
    '  --home DIR            the mecha home',
    '',
  ].join('\n'),
  options: {
    ...Object.fromEntries(limitOptions.map(([name]) => [name, { type: 'string' as const }])),
    json: { type: 'boolean' },
  },
  takesNoArguments: true,
  async run({ values, context }) {
    const path = this.path;
    const asked: Partial<Record<keyof AppraisalLimits, number>> = {};
    for (const [name, field] of limitOptions) {
      const text = stringOption(values, name);
      if (text === undefined) continue;
      // Any integer is passed on: the range check and its refusal are the appraiser's.
      if (!/^-?\d{1,16}$/.test(text))
        return usageError(context, path, `--${name} takes an integer, not ${JSON.stringify(text)}`);
      asked[field] = Number(text);
    }
    const { appraisalLimitRanges } = await import('@mecha/gpu-appraiser');
    return withAppraiser(context, this.path, (appraiser) => {
      if (Object.keys(asked).length === 0) {
        const configuration = appraiser.configuration();
        print(context, flag(values, 'json'), { configuration, ranges: appraisalLimitRanges }, () =>
          limitOptions.map(([name, field, words]) => {
            const [min, max] = appraisalLimitRanges[field];
            const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `${min}–${max}`;
            return `--${name.padEnd(16)}${String(configuration.limits[field]).padStart(8)}  ${words} (accepts ${range})`;
          }),
        );
        return exitCodes.ok;
      }
      const result = appraiser.setLimits(asked);
      print(context, flag(values, 'json'), controlJson(result), () => controlLines(result));
      return result._tag === 'Left' ? exitCodes.failure : exitCodes.ok;
    });
  },
};

export function policyCommand(
  name: 'pause' | 'stop' | 'resume',
  policy: 'paused' | 'stopped' | 'run',
  summary: string,
  text: string,
): Command {
  return {
    path: `appraiser ${name}`,
    summary,
    help: [
      `Usage: mecha appraiser ${name} [--json]`,
      '',
      text,
      'The control is pending until the next quiet boundary, and cancels a running appraisal (here',
      'or in another process) within one token.',
      '',
      'Options:',
      '  --json          the control and the configuration it leads to, as JSON',
      '  --home DIR      the mecha home',
      '',
    ].join('\n'),
    options: { json: { type: 'boolean' } },
    takesNoArguments: true,
    async run({ values, context }) {
      return withAppraiser(context, this.path, (appraiser) => {
        const result = appraiser.setPolicy(policy);
        print(context, flag(values, 'json'), controlJson(result), () => controlLines(result));
        return exitCodes.ok;
      });
    },
  };
}

export function holdCommand(name: 'hold' | 'release'): Command {
  return {
    path: `appraiser ${name}`,
    summary:
      name === 'hold'
        ? 'suspend every appraisal tick (model call), in every process, at once'
        : 'let appraisal ticks resume',
    help: [
      `Usage: mecha appraiser ${name} [--json]`,
      '',
      name === 'hold'
        ? 'Puts the scheduler hold on, at once (not pending): no appraisal starts a model call while it\nis on, in this or any other process; a call already decoding finishes. A control given during\nthe hold cancels the held appraisal when ticks resume.'
        : 'Takes the scheduler hold off: held appraisals resume at their next tick, where a control\ngiven meanwhile cancels them.',
      '',
      'Options:',
      '  --json          the hold as JSON',
      '  --home DIR      the mecha home',
      '',
    ].join('\n'),
    options: { json: { type: 'boolean' } },
    takesNoArguments: true,
    async run({ values, context }) {
      return withAppraiser(context, this.path, (appraiser) => {
        if (name === 'hold') appraiser.hold();
        else appraiser.release();
        const hold = appraiser.status().hold;
        print(context, flag(values, 'json'), hold, () => [
          `scheduler hold: ${hold.held ? 'on' : 'off'}${hold.waiting === null ? '' : ` (process ${hold.waiting} waits at it)`}`,
        ]);
        return exitCodes.ok;
      });
    },
  };
}

/** The flags of a previous configuration: a number (writes=1, recall=2, background=4) or status's booleans. */
function importedFlags(value: unknown): number | undefined {
  const flags = (value as { flags?: unknown } | null)?.flags;
  if (typeof flags === 'number') return flags;
  if (typeof flags !== 'object' || flags === null) return undefined;
  const set = flags as Record<string, unknown>;
  const bits = { writes: 1, recall: 2, background: 4 } as const;
  let total = 0;
  for (const [key, bit] of Object.entries(bits)) {
    if (typeof set[key] !== 'boolean') return undefined;
    if (set[key]) total += bit;
  }
  return total;
}

export const importCommand: Command = {
  path: 'appraiser import',
  summary: 'import a previous configuration (recall only: no new writes or generation)',
  help: [
    'Usage: mecha appraiser import FILE [--json]',
    '',
    'Imports a previous configuration from FILE: JSON with "flags", a number (writes=1, recall=2,',
    'background=4) or the booleans `mecha appraiser status --json` prints. Once applied, recall',
    'works as it did and new appraisal writes and generation are off, until an explicit',
    '`mecha appraiser on|off` selects the current processor again. Pending until a quiet boundary.',
    '',
    'Options:',
    '  --json          the control and the configuration it leads to, as JSON',
    '  --home DIR      the mecha home',
    '',
  ].join('\n'),
  options: { json: { type: 'boolean' } },
  async run({ values, positionals, context }) {
    const path = this.path;
    if (positionals.length !== 1) return usageError(context, path, 'name one FILE');
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(positionals[0] as string, 'utf8'));
    } catch (error) {
      return failure(context, path, `cannot read ${positionals[0]}: ${(error as Error).message}`);
    }
    const flags = importedFlags(parsed);
    if (flags === undefined) {
      return failure(
        context,
        path,
        `${positionals[0]} holds no "flags" (a number, or writes/recall/background booleans); nothing was imported`,
      );
    }
    return withAppraiser(context, this.path, (appraiser) => {
      const result = appraiser.importConfiguration({ flags });
      print(context, flag(values, 'json'), controlJson(result), () => controlLines(result));
      return exitCodes.ok;
    });
  },
};
