import { parseArgs } from 'node:util';
import { cliVersion } from './version.js';

/** Where the command writes; a test or an embedding program can pass its own. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

const commands: readonly { name: string; summary: string }[] = [
  { name: 'demo', summary: 'show what mecha reads, on a sample home' },
];

function usage(): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    `mecha ${cliVersion} — honest appraisal, memory and verdicts for AI-agent harnesses`,
    '',
    'Usage: mecha <command> [options]',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    'Options:',
    '  -h, --help     show this help (every command has its own)',
    '  -v, --version  print the version',
    '',
  ].join('\n');
}

function demo(io: CliIo): number {
  io.stdout(`mecha ${cliVersion}\n\n`);
  io.stdout('The demo will generate a sample home and appraise it once those readers land.\n');
  io.stdout('What this build can do:\n');
  for (const command of commands) io.stdout(`  mecha ${command.name} — ${command.summary}\n`);
  return 0;
}

/**
 * Runs the `mecha` command with its arguments and returns the exit code: 0 ok, 1 failure,
 * 2 usage. Never calls `process.exit`, so a caller can embed it.
 */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (error) {
    io.stderr(`mecha: ${(error as Error).message}\nRun 'mecha --help' for usage.\n`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  if (parsed.values.version && command === undefined) {
    io.stdout(`${cliVersion}\n`);
    return 0;
  }
  if (parsed.values.help || command === undefined) {
    io.stdout(usage());
    return 0;
  }
  if (command === 'demo' && rest.length === 0) return demo(io);
  const what =
    command === 'demo' ? `unexpected argument '${rest[0]}'` : `unknown command '${command}'`;
  io.stderr(`mecha: ${what}\nRun 'mecha --help' for the commands.\n`);
  return 2;
}
