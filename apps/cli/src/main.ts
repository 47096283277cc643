// Only light modules at the top: this file is on the path of `mecha --version` and `--help`.
// The command runner and the appraisal core (for `stripControl`) are loaded when needed.
import { type CliIo, type CommandContext, commandContext, processIo } from './cli-io.js';
import { commands } from './commands/registry.js';
import { exitCodes } from './exit-codes.js';
import { didYouMean } from './parse-command.js';
import { cliVersion } from './version.js';

export type { CliIo } from './cli-io.js';

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

async function usageError(context: CommandContext, message: string): Promise<number> {
  const { stripControl } = await import('@mecha/appraisal-core');
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
  const [group, { runGroup }] = await Promise.all([entry.load(), import('./command.js')]);
  return runGroup(group, help ? ['--help', ...rest] : rest, commandContext(io, home));
}
