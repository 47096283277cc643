import { stripControl } from '@mecha/appraisal-core';
import type { ModelFetchEvent } from '@mecha/local-model';

/** A byte count as people read it: `812 KB`, `1.9 GB` (decimal units, as download sites use). */
export function byteSize(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  if (unit === 0) return `${bytes} bytes`;
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${units[unit]}`;
}

/**
 * Prints a model fetch on stderr, for a command that loads a model (`label` is its prefix, as
 * in `mecha distill`). A line when the fetch starts and one when it ends, always; on a terminal,
 * in between, one line redrawn in place: each time another whole percent has arrived, or, when
 * the host gave no size, at most once a second by `now`. Never stdout, so `--json` stays
 * parseable.
 */
export function modelFetchPrinter(options: {
  readonly write: (text: string) => void;
  readonly isTTY: boolean;
  readonly label: string;
  readonly now?: () => number;
}): (event: ModelFetchEvent) => void {
  const now = options.now ?? (() => performance.now());
  const { write, label } = options;
  let drawn = false;
  let shownPercent = -1;
  let drawnAt = Number.NEGATIVE_INFINITY;
  const clear = () => {
    if (drawn) write('\r\u001b[K');
    drawn = false;
  };
  return (event) => {
    const uri = stripControl(event.uri);
    switch (event.kind) {
      case 'start': {
        const size = event.totalSize === undefined ? '' : ` (${byteSize(event.totalSize)})`;
        write(`${label}: fetching the model ${uri}${size} into ${stripControl(event.directory)}\n`);
        return;
      }
      case 'progress': {
        if (!options.isTTY) return;
        const total = event.totalSize;
        let text: string;
        if (total === undefined) {
          const at = now();
          if (at - drawnAt < 1000) return;
          drawnAt = at;
          text = `${byteSize(event.downloadedSize)} so far`;
        } else {
          const percent = Math.floor((Math.min(event.downloadedSize, total) / total) * 100);
          if (percent <= shownPercent) return;
          shownPercent = percent;
          text = `${percent}% (${byteSize(event.downloadedSize)} of ${byteSize(total)})`;
        }
        write(`\r\u001b[K${label}: fetching the model: ${text}`);
        drawn = true;
        return;
      }
      case 'end':
        clear();
        write(
          `${label}: fetched the model (${byteSize(event.size)}) into ${stripControl(event.path)}\n`,
        );
        return;
      case 'failed':
        clear();
        return;
    }
  };
}
