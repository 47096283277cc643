import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempDir } from './__fixtures__/temp-dir.js';
import { readJsonlFile } from './read-jsonl-file.js';
import { recordValidator } from './record-validator.js';

const itemSchema = z.object({ v: z.literal(1), n: z.int().nonnegative() });
const items = recordValidator(itemSchema);

function fileWith(content: string | Buffer): string {
  const path = join(tempDir(), 'store.jsonl');
  writeFileSync(path, content);
  return path;
}

describe('readJsonlFile', () => {
  it('reads every record of a whole file', () => {
    const path = fileWith('{"v":1,"n":1}\n{"v":1,"n":2}\n');
    expect(readJsonlFile(path, 'store.jsonl', items)).toEqual({
      state: 'read',
      records: [
        { v: 1, n: 1 },
        { v: 1, n: 2 },
      ],
    });
  });

  it('skips a line that is not JSON and says where it was', () => {
    const path = fileWith('{"v":1,"n":1}\ngarbage\n{"v":1,"n":3}\n');
    expect(readJsonlFile(path, 'store.jsonl', items)).toEqual({
      state: 'partial',
      records: [
        { v: 1, n: 1 },
        { v: 1, n: 3 },
      ],
      skipped: [{ file: 'store.jsonl', line: 2, reason: 'not JSON' }],
    });
  });

  it('skips a record its schema refuses, naming the field', () => {
    const read = readJsonlFile(fileWith('{"v":1,"n":-1}\n'), 'store.jsonl', items);
    expect(read.state).toBe('partial');
    expect(read.state === 'partial' && read.skipped[0]?.reason).toMatch(/^invalid record: n: /);
  });

  it('skips a line that is not UTF-8 and keeps its neighbours', () => {
    const bad = Buffer.concat([
      Buffer.from('{"v":1,"n":1}\n{"v":1,"n":'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('}\n{"v":1,"n":3}\n'),
    ]);
    expect(readJsonlFile(fileWith(bad), 'store.jsonl', items)).toEqual({
      state: 'partial',
      records: [
        { v: 1, n: 1 },
        { v: 1, n: 3 },
      ],
      skipped: [{ file: 'store.jsonl', line: 2, reason: 'not valid UTF-8' }],
    });
  });

  it('flags a torn final line as torn', () => {
    const read = readJsonlFile(fileWith('{"v":1,"n":1}\n{"v":1,"n'), 'store.jsonl', items);
    expect(read).toEqual({
      state: 'partial',
      records: [{ v: 1, n: 1 }],
      skipped: [
        { file: 'store.jsonl', line: 2, reason: 'torn final line: no newline and not JSON' },
      ],
    });
  });

  it('flags a torn final line cut inside a multibyte character as torn, not as bad UTF-8', () => {
    // A crash mid-append can cut "€" (E2 82 AC) after its second byte.
    const path = join(tempDir(), 'store.jsonl');
    writeFileSync(
      path,
      Buffer.concat([Buffer.from('{"v":1,"n":1}\n{"v":1,"text":"'), Buffer.from([0xe2, 0x82])]),
    );
    expect(readJsonlFile(path, 'store.jsonl', items)).toEqual({
      state: 'partial',
      records: [{ v: 1, n: 1 }],
      skipped: [
        {
          file: 'store.jsonl',
          line: 2,
          reason: 'torn final line: no newline and not valid UTF-8',
        },
      ],
    });
  });

  it('keeps a whole record that lacks only its newline', () => {
    expect(readJsonlFile(fileWith('{"v":1,"n":1}'), 'store.jsonl', items)).toEqual({
      state: 'read',
      records: [{ v: 1, n: 1 }],
    });
  });

  it('ignores blank lines', () => {
    expect(readJsonlFile(fileWith('\n{"v":1,"n":1}\n  \n\n'), 'store.jsonl', items).state).toBe(
      'read',
    );
  });

  it('reports a missing file as missing, for the caller to judge', () => {
    expect(readJsonlFile(join(tempDir(), 'nothing.jsonl'), 'nothing.jsonl', items)).toEqual({
      state: 'missing',
    });
  });

  it('reads a directory in place of the file as unreadable, never as empty', () => {
    const folder = join(tempDir(), 'store.jsonl');
    mkdirSync(folder);
    expect(readJsonlFile(folder, 'store.jsonl', items)).toEqual({
      state: 'unreadable',
      reason: 'store.jsonl is a directory, not a file',
    });
  });

  it('gives the same answer streamed in small blocks as read whole', () => {
    const line = fc.oneof(
      fc.nat({ max: 1000 }).map((n) => JSON.stringify({ v: 1, n })),
      fc.string({ maxLength: 80 }),
      fc.uint8Array({ maxLength: 40 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
    );
    const folder = tempDir();
    let round = 0;
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 30 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 64 }),
        (lines, newlineAtEnd, block) => {
          round += 1;
          const path = join(folder, `f${round}.jsonl`);
          writeFileSync(path, Buffer.from(lines.join('\n') + (newlineAtEnd ? '\n' : ''), 'latin1'));
          const whole = readJsonlFile(path, 'f.jsonl', items);
          const streamed = readJsonlFile(path, 'f.jsonl', items, block);
          expect(streamed).toEqual(whole);
        },
      ),
    );
  });
});
