import { type ParseArgsConfig, parseArgs } from 'node:util';
import { type Either, left, type Refusal, refusal, right } from '@mecha/errors';

/** The options a command declares, in `node:util`'s `parseArgs` shape. */
export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

/** The values of a command's options, by name. */
export type OptionValues = Readonly<
  Record<string, string | boolean | (string | boolean)[] | undefined>
>;

/** A usage error: what was wrong with the command line, said for its user. */
export type UsageRefusal = Refusal<'bad_request'>;

/** What parsing a command line gave: its values and positionals, or a usage error. */
export type Parsed = Either<
  UsageRefusal,
  { readonly values: OptionValues; readonly positionals: readonly string[] }
>;

function usage(message: string): Either<UsageRefusal, never> {
  return left(refusal('bad_request', message));
}

/** Edit distance between two short words (insertions, deletions, substitutions). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(
        Math.min(
          (previous[j] as number) + 1,
          (current[j - 1] as number) + 1,
          (previous[j - 1] as number) + cost,
        ),
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/**
 * The closest of `choices` to `word`, when one is close enough to be what was meant (within a
 * third of its length, and at least one edit), or one that starts with it.
 */
export function closest(word: string, choices: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const choice of choices) {
    const d = distance(word, choice);
    if (d < bestDistance) {
      best = choice;
      bestDistance = d;
    }
  }
  if (best !== undefined && bestDistance <= Math.max(1, Math.floor(best.length / 3))) return best;
  return choices.find((choice) => word.length >= 3 && choice.startsWith(word));
}

/** ` (did you mean X?)`, or nothing. */
export function didYouMean(word: string, choices: readonly string[]): string {
  const found = closest(word, choices);
  return found === undefined ? '' : ` (did you mean ${found}?)`;
}

/** How an option is written on the command line, for messages: `--days N`, `-n, --number N`. */
function optionNames(options: OptionSpec): string[] {
  return Object.keys(options).map((name) => `--${name}`);
}

/**
 * A value that starts with '-' after an option that takes one (`--days -1`) is that option's
 * value, not another option: joined as `--days=-1`, so the command's own check can say what
 * the option takes. Only numbers are joined; `--home --json` stays an error the caller reports.
 */
function joinNegativeValues(args: readonly string[], options: OptionSpec): string[] {
  const out: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const token = args[index] as string;
    const next = args[index + 1];
    const name = token.startsWith('--')
      ? token.slice(2)
      : Object.entries(options).find(
          ([, spec]) => spec.short !== undefined && `-${spec.short}` === token,
        )?.[0];
    if (
      name !== undefined &&
      !token.includes('=') &&
      options[name]?.type === 'string' &&
      next !== undefined &&
      /^-[\d.]/.test(next)
    ) {
      out.push(`--${name}=${next}`);
      index += 1;
    } else out.push(token);
  }
  return out;
}

/**
 * Parses one command's arguments strictly: an unknown option is a usage error, never ignored,
 * and every message names the option and what it takes.
 */
export function parseCommand(args: readonly string[], options: OptionSpec): Parsed {
  try {
    const parsed = parseArgs({
      args: joinNegativeValues(args, options),
      options,
      allowPositionals: true,
      strict: true,
    });
    return right({ values: parsed.values, positionals: parsed.positionals });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const message = error instanceof Error ? error.message : String(error);
    const quoted = /'(-[^']*)'/.exec(message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && quoted !== undefined) {
      const bare = quoted.split('=')[0] as string;
      return usage(`unknown option '${bare}'${didYouMean(bare, optionNames(options))}`);
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && quoted !== undefined) {
      const name = quoted.replace(/^-+/, '').split(/[ ,=]/)[0] as string;
      const spec = Object.entries(options).find(
        ([long, value]) => long === name || value.short === name,
      );
      const long = spec?.[0] ?? name;
      return usage(
        spec?.[1].type === 'boolean'
          ? `--${long} is a switch and takes no value`
          : `--${long} needs a value`,
      );
    }
    // node's messages run over two sentences; the first one says what was wrong.
    return usage(message.split('\n')[0]?.replace(/\.$/, '') ?? 'bad arguments');
  }
}

/** A whole number from `min` to `max` from an option's text, or why not. */
export function wholeNumber(
  text: string,
  name: string,
  min = 1,
  max = 999_999_999,
): Either<UsageRefusal, number> {
  const value = /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    return usage(
      `${name} takes a whole number from ${min} to ${max.toLocaleString('en')}, not ${JSON.stringify(text)}`,
    );
  }
  return right(value);
}

/**
 * An optional whole-number option (`--limit N`): absent is `undefined`; given, it is read by
 * {@link wholeNumber}, or why not.
 */
export function wholeNumberOption(
  values: OptionValues,
  name: string,
): Either<UsageRefusal, number | undefined> {
  const text = stringOption(values, name);
  return text === undefined ? right(undefined) : wholeNumber(text, `--${name}`);
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
