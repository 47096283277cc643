import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readLines } from './read-lines.js';

const dir = mkdtempSync(join(tmpdir(), 'mecha-read-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;
function fileWith(text: string | Buffer): string {
  count += 1;
  const path = join(dir, `f${count}.jsonl`);
  writeFileSync(path, text);
  return path;
}

describe('readLines', () => {
  it('gives the same lines and offsets whatever the chunk size, and resumes after any line', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: 'grapheme', maxLength: 20 }).map((s) => s.replace(/\n/g, '')),
          {
            maxLength: 12,
          },
        ),
        fc.boolean(),
        fc.integer({ min: 1, max: 16 }),
        (texts, trailing, chunkBytes) => {
          const body = texts.join('\n') + (trailing && texts.length > 0 ? '\n' : '');
          const path = fileWith(body);
          const read = [...readLines(path, { chunkBytes })];
          // A final empty piece is no line: the file ended with a newline, or was empty.
          const expected = body.split('\n');
          if (expected[expected.length - 1] === '') expected.pop();
          expect(read.map((line) => line.text)).toEqual(
            expected.map((text) => (text.endsWith('\r') ? text.slice(0, -1) : text)),
          );
          // Each line ends where the next begins, and the last ends at the file's size.
          const size = Buffer.byteLength(body);
          if (read.length > 0) expect(read[read.length - 1]?.end).toBe(size);
          for (const [index, line] of read.entries()) {
            expect(line.line).toBe(index + 1);
            const rest = [
              ...readLines(path, { offset: line.end, linesBefore: line.line, chunkBytes }),
            ];
            expect(rest.map((next) => next.line)).toEqual(
              read.slice(index + 1).map((next) => next.line),
            );
            expect(rest.map((next) => next.text)).toEqual(
              read.slice(index + 1).map((next) => next.text),
            );
          }
        },
      ),
    );
  });

  it('marks only a last line without a newline as unterminated', () => {
    const lines = [...readLines(fileWith('{"a":1}\n{"b":'))];
    expect(lines.map((line) => line.unterminated)).toEqual([false, true]);
    expect(lines[1]?.text).toBe('{"b":');
  });

  it('skips a line longer than the limit without holding it, and goes on', () => {
    const long = 'x'.repeat(5000);
    const lines = [
      ...readLines(fileWith(`short\n${long}\nafter\n`), { maxLineBytes: 100, chunkBytes: 64 }),
    ];
    expect(lines.map((line) => [line.line, line.tooLong, line.text])).toEqual([
      [1, false, 'short'],
      [2, true, ''],
      [3, false, 'after'],
    ]);
  });

  it('keeps a character split across two reads whole', () => {
    const lines = [...readLines(fileWith('héllo wörld 🎉\n'), { chunkBytes: 3 })];
    expect(lines[0]?.text).toBe('héllo wörld 🎉');
  });
});
