import type { ModelFetchEvent } from '@mecha/local-model';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byteSize, modelFetchPrinter } from './model-fetch-progress.js';

const uri = 'https://example.org/m.gguf';
const start: ModelFetchEvent = { kind: 'start', uri, directory: '/h/models', totalSize: 2_000_000 };
const end: ModelFetchEvent = { kind: 'end', uri, path: '/h/models/m.gguf', size: 2_000_000 };
const progress = (downloadedSize: number, totalSize?: number): ModelFetchEvent => ({
  kind: 'progress',
  uri,
  downloadedSize,
  ...(totalSize === undefined ? {} : { totalSize }),
});

function printed(isTTY: boolean, events: readonly ModelFetchEvent[], times: number[] = []) {
  const out: string[] = [];
  const print = modelFetchPrinter({
    write: (text) => out.push(text),
    isTTY,
    label: 'mecha distill',
    now: () => times.shift() ?? 0,
  });
  for (const event of events) print(event);
  return out;
}

describe('modelFetchPrinter', () => {
  it('prints only a start and an end line where stderr is not a terminal', () => {
    const bytes = Array.from({ length: 50 }, (_, index) => (index + 1) * 40_000);
    expect(printed(false, [start, ...bytes.map((b) => progress(b, 2_000_000)), end])).toEqual([
      'mecha distill: fetching the model https://example.org/m.gguf (2.0 MB) into /h/models\n',
      'mecha distill: fetched the model (2.0 MB) into /h/models/m.gguf\n',
    ]);
  });

  it('on a terminal redraws one line per whole percent, then clears it before the end line', () => {
    const out = printed(true, [
      start,
      progress(1_000, 2_000_000), // 0%
      progress(10_000, 2_000_000), // still 0%: not drawn again
      progress(20_000, 2_000_000), // 1%
      progress(1_000_000, 2_000_000), // 50%
      end,
    ]);
    expect(out).toEqual([
      'mecha distill: fetching the model https://example.org/m.gguf (2.0 MB) into /h/models\n',
      '\r\u001b[Kmecha distill: fetching the model: 0% (1.0 KB of 2.0 MB)',
      '\r\u001b[Kmecha distill: fetching the model: 1% (20.0 KB of 2.0 MB)',
      '\r\u001b[Kmecha distill: fetching the model: 50% (1.0 MB of 2.0 MB)',
      '\r\u001b[K',
      'mecha distill: fetched the model (2.0 MB) into /h/models/m.gguf\n',
    ]);
  });

  it('with no size from the host, redraws at most once a second by the clock it is given', () => {
    const out = printed(
      true,
      [progress(100), progress(200), progress(300), progress(400)],
      [0, 999, 1000, 1500],
    );
    expect(out).toEqual([
      '\r\u001b[Kmecha distill: fetching the model: 100 bytes so far',
      '\r\u001b[Kmecha distill: fetching the model: 300 bytes so far',
    ]);
  });

  it('draws at most 101 times however the bytes arrive, and never writes a newline mid-fetch', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: 500 }),
        (steps) => {
          let at = 0;
          const sizes = steps.map((step) => {
            at += step;
            return at;
          });
          const out = printed(
            true,
            sizes.map((size) => progress(size, at)),
          );
          expect(out.length).toBeLessThanOrEqual(101);
          for (const line of out) expect(line).not.toContain('\n');
        },
      ),
    );
  });

  it('clears a drawn line on failure, so the error starts on a clean line', () => {
    expect(printed(true, [progress(5, 10), { kind: 'failed', uri }]).at(-1)).toBe('\r\u001b[K');
    expect(printed(false, [progress(5, 10), { kind: 'failed', uri }])).toEqual([]);
  });

  it('strips control characters from what it prints', () => {
    const hostile: ModelFetchEvent = { ...start, uri: 'https://x/\u001b[2Jm.gguf' };
    expect(printed(false, [hostile])[0]).not.toContain('\u001b');
  });

  it('says sizes as people read them', () => {
    expect(byteSize(0)).toBe('0 bytes');
    expect(byteSize(999)).toBe('999 bytes');
    expect(byteSize(1_500)).toBe('1.5 KB');
    expect(byteSize(4_920_000_000)).toBe('4.9 GB');
    expect(byteSize(123_456_789)).toBe('123 MB');
  });
});
