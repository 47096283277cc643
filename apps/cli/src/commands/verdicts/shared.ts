import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CommandContext } from '../../cli-io.js';
import { type Command, failure } from '../../command.js';
import { flag } from '../../parse-command.js';

/** The shared parts of the `mecha verdicts` subcommands: loading the graders, files, JSON. */

// Loaded only when a verdicts command runs: the graders bring the TypeScript compiler.
export const verdictsModule = () => import('@mecha/grader-verdicts');

export const bankOption =
  '  --bank DIR      the bank folder (default: the bank shipped with @mecha/grader-verdicts)';

export function json(context: CommandContext, value: unknown): void {
  context.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

/** Runs a use-case; a bad input (a missing bank, a malformed task) is a failure with its message. */
export async function guarded(
  context: CommandContext,
  path: string,
  work: () => Promise<number>,
): Promise<number> {
  try {
    return await work();
  } catch (error) {
    const { GraderInputError } = await verdictsModule();
    if (GraderInputError.isInstance(error)) return failure(context, path, error.message);
    throw error;
  }
}

export function bankDir(
  context: CommandContext,
  values: Record<string, unknown>,
): string | undefined {
  const bank = values.bank;
  return typeof bank === 'string' ? resolve(context.cwd, bank) : undefined;
}

/** What a command over one bank is given: its options, parsed. */
export interface BankRequest {
  readonly context: CommandContext;
  /** The `--bank` folder, resolved; `undefined` for the bank shipped with the graders. */
  readonly bank: string | undefined;
  /** `--json`: print the report as JSON. */
  readonly asJson: boolean;
}

/**
 * A `mecha verdicts` command over one bank: `--bank DIR` and `--json`, no arguments, no mecha
 * home (grading reads task folders and banks). Parses both options and runs `act` guarded.
 */
export function bankCommand(
  spec: Pick<Command, 'path' | 'summary' | 'help'> & {
    act(request: BankRequest): Promise<number>;
  },
): Command {
  return {
    path: spec.path,
    summary: spec.summary,
    help: spec.help,
    options: { bank: { type: 'string' }, json: { type: 'boolean' } },
    homeMayBeMissing: true,
    takesNoArguments: true,
    run: ({ values, context }) =>
      guarded(context, spec.path, () =>
        spec.act({ context, bank: bankDir(context, values), asJson: flag(values, 'json') }),
      ),
  };
}

/** Reads a JSON file a command was given, or says why not (a GraderInputError). */
export async function readJson(context: CommandContext, file: string): Promise<unknown> {
  const { GraderInputError } = await verdictsModule();
  const path = resolve(context.cwd, file);
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new GraderInputError(path, `${path} is not readable JSON`, { cause: error });
  }
}

/** Writes a JSON file the command produced, never over an existing one. */
export async function writeNewJson(
  context: CommandContext,
  file: string,
  value: unknown,
): Promise<string> {
  const { GraderInputError } = await verdictsModule();
  const path = resolve(context.cwd, file);
  try {
    writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`, { flag: 'wx' });
  } catch (error) {
    const exists = (error as NodeJS.ErrnoException).code === 'EEXIST';
    throw new GraderInputError(
      path,
      exists ? `${path} already exists: name a new file` : `${path} cannot be written`,
      { cause: error },
    );
  }
  return path;
}

/** Reads a key file a command was given, or says why not. */
export async function readKey(context: CommandContext, file: string): Promise<string> {
  const { GraderInputError } = await verdictsModule();
  try {
    return readFileSync(resolve(context.cwd, file), 'utf8');
  } catch (error) {
    throw new GraderInputError(file, `the key ${file} cannot be read`, { cause: error });
  }
}
