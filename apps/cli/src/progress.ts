/** A progress bar for a long scan; every method is a no-op where no bar may be drawn. */
export interface Progress {
  /** The scan has `total` items to go through (it may learn this late). */
  total(count: number): void;
  /** One more item is done. */
  tick(): void;
  /** Clears the bar; call it before printing anything else. */
  done(): void;
}

/** The no-op progress, for pipes, `--json` into a file, and embedding. */
export const noProgress: Progress = { total() {}, tick() {}, done() {} };

/**
 * A bar on stderr that appears only once a scan has run for `delayMs` (about a second), only
 * on a terminal, and redraws at most ten times a second. It never writes to stdout, so `--json`
 * stays parseable, and it erases itself when done.
 */
export function progressBar(options: {
  readonly write: (text: string) => void;
  readonly isTTY: boolean;
  readonly label: string;
  readonly delayMs?: number;
  readonly now?: () => number;
}): Progress {
  if (!options.isTTY) return noProgress;
  const now = options.now ?? (() => performance.now());
  const started = now();
  const delay = options.delayMs ?? 1000;
  let total = 0;
  let count = 0;
  let drawnAt = Number.NEGATIVE_INFINITY;
  let shown = false;
  const draw = () => {
    const at = now();
    if (at - started < delay || at - drawnAt < 100) return;
    drawnAt = at;
    shown = true;
    const width = 30;
    const share = total > 0 ? Math.min(1, count / total) : 0;
    const filled = Math.round(share * width);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
    const counts = total > 0 ? `${Math.min(count, total)}/${total}` : String(count);
    options.write(`\r\u001b[K${options.label} ${bar} ${counts}`);
  };
  return {
    total(value) {
      total = value;
    },
    tick() {
      count += 1;
      draw();
    },
    done() {
      if (shown) options.write('\r\u001b[K');
      shown = false;
    },
  };
}
