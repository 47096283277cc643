/**
 * Where the command writes and what it runs in. A test or an embedding program passes its own;
 * only `stdout` and `stderr` are required, the rest default to this process's.
 */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** The environment (`MECHA_HOME`, `NO_COLOR`, a run's registration); `process.env` by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Relative paths are resolved against this; `process.cwd()` by default. */
  readonly cwd?: string;
  /** Whether stdout is a terminal (colour); false unless said. */
  readonly stdoutIsTTY?: boolean;
  /** Whether stderr is a terminal (progress bar); false unless said. */
  readonly stderrIsTTY?: boolean;
}

/** The io of this process: its streams, environment, working folder and terminals. */
export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
  };
}

/** Everything a command reads about where it runs, with the defaults filled in. */
export interface CommandContext {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  /** The `--home` given before the command, if any (a command's own `--home` wins). */
  readonly home?: string;
  /** Set by `runCommand` for a command that needs an existing home (see `homePath`). */
  readonly homeMustExist?: boolean;
}

/** Fills in the defaults of an io. */
export function commandContext(io: CliIo, home?: string): CommandContext {
  return {
    stdout: io.stdout,
    stderr: io.stderr,
    env: io.env ?? process.env,
    cwd: io.cwd ?? process.cwd(),
    stdoutIsTTY: io.stdoutIsTTY ?? false,
    stderrIsTTY: io.stderrIsTTY ?? false,
    ...(home === undefined ? {} : { home }),
  };
}
