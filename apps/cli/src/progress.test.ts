import { describe, expect, it } from 'vitest';
import { progressBar } from './progress.js';

function clock() {
  let time = 0;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

describe('progressBar', () => {
  it('draws nothing when stderr is not a terminal', () => {
    const written: string[] = [];
    const time = clock();
    const bar = progressBar({
      write: (text) => written.push(text),
      isTTY: false,
      label: 'x',
      now: time.now,
    });
    bar.total(10);
    time.advance(5000);
    bar.tick();
    bar.done();
    expect(written).toEqual([]);
  });

  it('appears only after the delay, then redraws at most ten times a second', () => {
    const written: string[] = [];
    const time = clock();
    const bar = progressBar({
      write: (text) => written.push(text),
      isTTY: true,
      label: 'scan',
      now: time.now,
    });
    bar.total(4);
    bar.tick();
    time.advance(999);
    bar.tick();
    expect(written).toEqual([]);
    time.advance(1);
    bar.tick();
    expect(written).toHaveLength(1);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
    expect(written[0]).toMatch(/^\r\u001b\[Kscan [█░]{30} 3\/4$/);
    time.advance(50);
    bar.tick();
    expect(written).toHaveLength(1);
  });

  it('erases itself when done, and only if it drew', () => {
    const written: string[] = [];
    const time = clock();
    const bar = progressBar({
      write: (text) => written.push(text),
      isTTY: true,
      label: 'scan',
      now: time.now,
    });
    bar.done();
    expect(written).toEqual([]);
    time.advance(2000);
    bar.tick();
    bar.done();
    expect(written.at(-1)).toBe('\r\u001b[K');
  });

  it('never counts past its total', () => {
    const written: string[] = [];
    const time = clock();
    const bar = progressBar({
      write: (text) => written.push(text),
      isTTY: true,
      label: 'scan',
      now: time.now,
    });
    bar.total(1);
    time.advance(2000);
    bar.tick();
    time.advance(200);
    bar.tick();
    expect(written.at(-1)).toMatch(/█{30} 1\/1$/);
  });
});
