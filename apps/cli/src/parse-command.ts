import { type ParseArgsConfig, parseArgs } from 'node:util';

/** The options a command declares, in `node:util`'s `parseArgs` shape. */
export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

/** The values of a command's options, by name. */
export type OptionValues = Readonly<
  Record<string, string | boolean | (string | boolean)[] | undefined>
>;

/** What parsing a command line gave: its values and positionals, or a usage error. */
export type Parsed =
  | {
      readonly ok: true;
      readonly values: OptionValues;
      readonly positionals: readonly string[];
    }
  | { readonly ok: false; readonly message: string };

/** Parses one command's arguments strictly: an unknown option is a usage error, never ignored. */
export function parseCommand(args: readonly string[], options: OptionSpec): Parsed {
  try {
    const parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
    return { ok: true, values: parsed.values, positionals: parsed.positionals };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // node's messages run over two sentences; the first one says what was wrong.
    return { ok: false, message: message.split('\n')[0]?.replace(/\.$/, '') ?? 'bad arguments' };
  }
}

/** A whole number of at least `min` from an option's text, or why not. */
export function wholeNumber(
  text: string,
  name: string,
  min = 1,
):
  | { readonly ok: true; readonly value: number }
  | { readonly ok: false; readonly message: string } {
  const value = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min) {
    return {
      ok: false,
      message: `${name} takes a whole number of at least ${min}, not ${JSON.stringify(text)}`,
    };
  }
  return { ok: true, value };
}

/** The string value of an option, if it was given. */
export function stringOption(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

/** Whether a boolean option was given. */
export function flag(values: OptionValues, name: string): boolean {
  return values[name] === true;
}
