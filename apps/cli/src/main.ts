import { stripControl } from '@mecha/appraisal-core';
import { type CliIo, type CommandContext, commandContext, processIo } from './cli-io.js';
import { type CommandGroup, exitCodes, runGroup } from './command.js';
import { didYouMean } from './parse-command.js';
import { cliVersion } from './version.js';

export type { CliIo } from './cli-io.js';

/**
 * The top-level commands. Each group is loaded only when named, so `mecha --version` and
 * `mecha --help` never load the readers, and nothing heavy (a model runtime, an MCP client) is
 * on the startup path of any command that does not need it.
 */
const commands: readonly {
  readonly name: string;
  readonly summary: string;
  readonly load: () => Promise<CommandGroup>;
}[] = [
  {
    name: 'init',
    summary: 'create a mecha home: manifest, config.toml with the graph server, a charter template',
    load: async () => (await import('./commands/init.js')).initGroup,
  },
  {
    name: 'doctor',
    summary: "every store's state, the config, model, graph server and locks; --repair compacts",
    load: async () => (await import('./commands/doctor.js')).doctorGroup,
  },
  {
    name: 'charter',
    summary: 'your ranked priorities: show them, or add, move, remove and edit lines',
    load: async () => (await import('./commands/charter.js')).charterGroup,
  },
  {
    name: 'sessions',
    summary: 'appraise, list, compare, health and successes: readouts derived from your records',
    load: async () => (await import('./commands/sessions.js')).sessionsGroup,
  },
  {
    name: 'tasks',
    summary: 'the board: list and add tasks, close and reopen them with an appraisal',
    load: async () => (await import('./commands/tasks.js')).tasksGroup,
  },
  {
    name: 'tools',
    summary: 'the tools a harness registered, which can close tasks, and whether each is guarded',
    load: async () => (await import('./commands/tools.js')).toolsGroup,
  },
  {
    name: 'import',
    summary: "import other agent CLIs' session logs (claude-code, codex) into the home",
    load: async () => (await import('./commands/import.js')).importGroup,
  },
  {
    name: 'export',
    summary: 'export appraisals as OpenTelemetry spans to an OTLP backend (Langfuse, Phoenix, …)',
    load: async () => (await import('./commands/export.js')).exportGroup,
  },
  {
    name: 'validity',
    summary: 'the readout against verifier outcomes of benchmark runs: AUC, intervals, counts',
    load: async () => (await import('./commands/validity.js')).validityGroup,
  },
  {
    name: 'hook',
    summary: 'run by an agent CLI as a hook: import its transcript live (claude-code)',
    load: async () => (await import('./commands/hook.js')).hookGroup,
  },
  {
    name: 'distill',
    summary: 'carry finished sessions into long-term memory (from @mecha/distill)',
    load: async () => (await import('./commands/distill.js')).distillGroup,
  },
  {
    name: 'reflect',
    summary:
      "turn the owner's corrections into lessons, with the local model (from @mecha/distill)",
    load: async () => (await import('./commands/reflect.js')).reflectGroup,
  },
  {
    name: 'nightly',
    summary: 'the nightly pass: reflect, distill, then score predictions, never two at once',
    load: async () => (await import('./commands/nightly.js')).nightlyGroup,
  },
  {
    name: 'graph',
    summary: 'review what distillation proposed: approve, deny, redact, search, show',
    load: async () => (await import('./commands/graph.js')).graphGroup,
  },
  {
    name: 'gossip',
    summary:
      'the probe a surprise seeds: what the graph holds about someone, and where it was wrong',
    load: async () => (await import('./commands/graph.js')).gossipGroup,
  },
  {
    name: 'appraiser',
    summary: 'appraise external reports with the local model; recall them (@mecha/gpu-appraiser)',
    load: async () => (await import('./commands/appraiser.js')).appraiserGroup,
  },
  {
    name: 'verdicts',
    summary: 'honest graders: audit, meta bank, drift watch, grade (from @mecha/grader-verdicts)',
    load: async () => (await import('./commands/verdicts.js')).verdictsGroup,
  },
  {
    name: 'web',
    summary: 'the web board: runs with their chips, the board, drafts, the charter, graph review',
    load: async () => (await import('./commands/web.js')).webGroup,
  },
  {
    name: 'slack',
    summary: 'run the Slack app: run-end lines, Done/Drop, drafts and /mecha charter',
    load: async () => (await import('./commands/slack.js')).slackGroup,
  },
  {
    name: 'demo',
    summary: 'generate a sample home and show every readout on it',
    load: async () => (await import('./commands/demo.js')).demoGroup,
  },
];

function usage(): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    `mecha ${cliVersion} — honest appraisal, memory and verdicts for AI-agent harnesses`,
    '',
    'Usage: mecha [--home DIR] <command> [options]     (mecha help <command> for its help)',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    'Options:',
    '  --home DIR     the mecha home to read and write (default: $MECHA_HOME, else ~/.mecha)',
    '  -h, --help     show this help (every command has its own)',
    '  -v, --version  print the version',
    '',
    'Exit codes: 0 ok, 1 failure, 2 usage. Output is plain when stdout is not a terminal or',
    'NO_COLOR is set; --json output holds only JSON.',
    '',
  ].join('\n');
}

function usageError(context: CommandContext, message: string): number {
  context.stderr(`mecha: ${stripControl(message)} (run 'mecha --help' for usage)\n`);
  return exitCodes.usage;
}

/**
 * Runs the `mecha` command with its arguments and returns the exit code: 0 ok, 1 failure,
 * 2 usage. Never calls `process.exit`, so a caller can embed it.
 */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  let home: string | undefined;
  let index = 0;
  let help = false;
  let version = false;
  const base = commandContext(io);
  for (; index < argv.length; index += 1) {
    const token = argv[index] as string;
    if (!token.startsWith('-')) break;
    if (token === '--help' || token === '-h') help = true;
    else if (token === '--version' || token === '-v') version = true;
    else if (token === '--home') {
      const value = argv[index + 1];
      if (value === undefined || value === '')
        return usageError(base, "option '--home' needs a folder");
      if (value.startsWith('-')) {
        return usageError(
          base,
          `option '--home' needs a folder, but got the option ${JSON.stringify(value)} (write --home ./${value} for a folder named so)`,
        );
      }
      home = value;
      index += 1;
    } else if (token.startsWith('--home=')) {
      home = token.slice('--home='.length);
      if (home === '') return usageError(base, "option '--home' needs a folder");
    } else {
      const global = ['--home', '--help', '--version'];
      return usageError(
        base,
        `unknown option '${token}'${didYouMean(token.split('=')[0] as string, global)}`,
      );
    }
  }
  const name = argv[index];
  if (name === undefined) {
    if (version && !help) {
      io.stdout(`${cliVersion}\n`);
      return exitCodes.ok;
    }
    if (help) {
      io.stdout(usage());
      return exitCodes.ok;
    }
    // No command is a usage error: the usage goes to stderr and the exit code is 2.
    io.stderr(usage());
    return exitCodes.usage;
  }
  if (name === 'help') {
    // `mecha help CMD [SUB]` is `mecha CMD [SUB] --help`.
    const [topic, ...more] = argv.slice(index + 1);
    if (topic === undefined) {
      io.stdout(usage());
      return exitCodes.ok;
    }
    return main([...argv.slice(0, index), topic, ...more, '--help'], io);
  }
  const entry = commands.find((command) => command.name === name);
  if (entry === undefined) {
    const names = commands.map((command) => command.name);
    return usageError(base, `unknown command '${name}'${didYouMean(name, names)}`);
  }
  const rest = argv.slice(index + 1);
  const group = await entry.load();
  return runGroup(group, help ? ['--help', ...rest] : rest, commandContext(io, home));
}
