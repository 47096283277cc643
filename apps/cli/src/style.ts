/** Text styles the human readouts use; each is the identity when colour is off. */
export interface Style {
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  /** Negative readings (never the only carrier of meaning: the sign is always printed). */
  readonly amber: (text: string) => string;
  readonly green: (text: string) => string;
  readonly red: (text: string) => string;
}

const plain = (text: string) => text;
const wrap = (open: number, close: number) => (text: string) =>
  text === '' ? text : `\u001b[${open}m${text}\u001b[${close}m`;

/**
 * Colour only for a terminal, and never when `NO_COLOR` is set to anything but the empty
 * string (https://no-color.org). Piped output and `--json` are always plain.
 */
export function styleFor(options: {
  readonly isTTY: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
}): Style {
  const noColor = options.env.NO_COLOR !== undefined && options.env.NO_COLOR !== '';
  if (!options.isTTY || noColor || options.env.TERM === 'dumb') {
    return { bold: plain, dim: plain, amber: plain, green: plain, red: plain };
  }
  return {
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    amber: wrap(33, 39),
    green: wrap(32, 39),
    red: wrap(31, 39),
  };
}
