import { stripControl } from '@mecha/appraisal-core';
import type { CommandContext } from './cli-io.js';
import { exitCodes } from './exit-codes.js';
import { MissingHomeError } from './missing-home.js';
import { didYouMean, type OptionSpec, type OptionValues, parseCommand } from './parse-command.js';

/** What a command is handed once its arguments parsed: values, positionals and its context. */
export interface CommandInput {
  readonly values: OptionValues;
  readonly positionals: readonly string[];
  readonly context: CommandContext;
}

/** One command: its words (`sessions appraise`), its help, its options and what it does. */
export interface Command {
  readonly path: string;
  readonly summary: string;
  /** The help printed by `--help`: synopsis, what it shows, and its options. */
  readonly help: string;
  /** Its own options; `--help` and `--home` are added to every command. */
  readonly options: OptionSpec;
  /**
   * Whether it runs on a home that does not exist (`init` makes one, `demo` generates one,
   * `doctor` reports it). Every other command refuses a missing home: absent is not empty.
   */
  readonly homeMayBeMissing?: boolean;
  /** Takes options only: `runCommand` refuses any argument as a usage error, for every command alike. */
  readonly takesNoArguments?: boolean;
  /** Returns the exit code: 0 ok, 1 failure, 2 usage. */
  run(input: CommandInput): Promise<number>;
}

/** A group of commands under one word (`sessions`, `tasks`, `charter`). */
export interface CommandGroup {
  readonly name: string;
  readonly summary: string;
  /** What runs when no subcommand is named (`mecha charter` shows the charter). */
  readonly fallback?: Command;
  readonly commands: readonly Command[];
}

export { exitCodes } from './exit-codes.js';

const commonOptions: OptionSpec = {
  help: { type: 'boolean', short: 'h' },
  home: { type: 'string' },
};

/** The one-line usage error every command prints: what was wrong and where the help is. */
export function usageError(context: CommandContext, path: string, message: string): number {
  context.stderr(`mecha ${path}: ${stripControl(message)} (see 'mecha ${path} --help')\n`);
  return exitCodes.usage;
}

/** The one-line failure every command prints: the request was understood and could not be done. */
export function failure(context: CommandContext, path: string, message: string): number {
  // Messages may quote file names, ids and reasons read from the home: never raw to a terminal.
  context.stderr(`mecha ${path}: ${stripControl(message)}\n`);
  return exitCodes.failure;
}

/** An act's failure as a package answers it: a `Refusal` of `@mecha/errors`. */
type RefusalLike = { readonly kind: string; readonly message: string };

/**
 * An act a package refused: a malformed request (`bad_request`) is a usage error (exit 2),
 * anything else a failure (exit 1). The one place a refusal's kind becomes an exit code.
 */
export function refused(context: CommandContext, path: string, refusal: RefusalLike): number {
  return refusal.kind === 'bad_request'
    ? usageError(context, path, refusal.message)
    : failure(context, path, refusal.message);
}

/** The exit code of a refusal whose message was already written (as JSON). */
export function refusedCode(refusal: Pick<RefusalLike, 'kind'>): number {
  return refusal.kind === 'bad_request' ? exitCodes.usage : exitCodes.failure;
}

/**
 * A `Refusal` as `--json` prints it: `{ state: 'refused', reason, message, …its own fields }`,
 * the object mecha's JSON output has always shown for a refusal (`reason` is the kind).
 */
export function refusalJson<R extends { readonly kind: string; readonly message: string }>(
  refusal: R,
): { readonly state: 'refused'; readonly reason: string } & Omit<R, 'kind'> {
  const { kind, ...rest } = refusal;
  return { state: 'refused', reason: kind, ...rest };
}

/** Parses a command's arguments (adding `--help` and `--home`) and runs it. */
export async function runCommand(
  command: Command,
  args: readonly string[],
  context: CommandContext,
): Promise<number> {
  const parsed = parseCommand(args, { ...commonOptions, ...command.options });
  if (!parsed.ok) return usageError(context, command.path, parsed.message);
  if (parsed.values.help === true) {
    context.stdout(command.help);
    return exitCodes.ok;
  }
  const home = parsed.values.home;
  if (home === '')
    return usageError(context, command.path, '--home needs a folder, not an empty string');
  if (typeof home === 'string' && home.startsWith('-')) {
    return usageError(
      context,
      command.path,
      `--home needs a folder, but got the option ${JSON.stringify(home)} (write --home DIR, or --home ./${home} for a folder named so)`,
    );
  }
  if (command.takesNoArguments === true && parsed.positionals.length > 0) {
    return usageError(context, command.path, `unexpected argument '${parsed.positionals[0]}'`);
  }
  const commandContext: CommandContext = {
    ...context,
    ...(typeof home === 'string' ? { home } : {}),
    homeMustExist: command.homeMayBeMissing !== true,
  };
  try {
    return await command.run({
      values: parsed.values,
      positionals: parsed.positionals,
      context: commandContext,
    });
  } catch (error) {
    if (error instanceof MissingHomeError) return failure(context, command.path, error.message);
    throw error;
  }
}

function groupHelp(group: CommandGroup): string {
  const width = Math.max(...group.commands.map((command) => command.path.length));
  const lines = [
    `mecha ${group.name} — ${group.summary}`,
    '',
    `Usage: mecha ${group.name}${group.fallback ? ' [command]' : ' <command>'} [options]`,
    '',
  ];
  if (group.fallback) lines.push(`With no command: ${group.fallback.summary}.`, '');
  lines.push(
    'Commands:',
    ...group.commands.map((command) => `  mecha ${command.path.padEnd(width)}  ${command.summary}`),
    '',
    `Run 'mecha ${group.name} <command> --help' for a command's options.`,
    '',
  );
  return lines.join('\n');
}

/**
 * Runs a group: the subcommand its first word names, else its fallback (which sees every
 * argument), else the group's help. `--help` right after the group's name is the group's help.
 */
export async function runGroup(
  group: CommandGroup,
  args: readonly string[],
  context: CommandContext,
): Promise<number> {
  const [first, ...rest] = args;
  const named = group.commands.find((command) => command.path === `${group.name} ${first}`);
  if (named !== undefined) return runCommand(named, rest, context);
  if (first === '--help' || first === '-h') {
    // A command with no subcommands (distill, demo, init, doctor) is its own help.
    if (group.commands.length === 0 && group.fallback) context.stdout(group.fallback.help);
    else {
      context.stdout(groupHelp(group));
      if (group.fallback) context.stdout(`\n${group.fallback.help}`);
    }
    return exitCodes.ok;
  }
  if (first !== undefined && !first.startsWith('-') && group.commands.length > 0) {
    const words = group.commands.map((command) => command.path.slice(group.name.length + 1));
    context.stderr(
      `mecha: unknown command '${group.name} ${stripControl(first)}'${didYouMean(first, words)} (run 'mecha ${group.name} --help' for its commands)\n`,
    );
    return exitCodes.usage;
  }
  if (group.fallback) return runCommand(group.fallback, args, context);
  context.stderr(groupHelp(group));
  return exitCodes.usage;
}
