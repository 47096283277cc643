import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './__fixtures__/temp-dir.js';
import { appendLines } from './append-lines.js';

const isRecord = (line: string) => {
  try {
    return typeof JSON.parse(line) === 'object';
  } catch {
    return false;
  }
};

describe('appendLines', () => {
  it('creates the file and its folder', () => {
    const path = join(tempDir(), 'store', 'log.jsonl');
    expect(appendLines(path, Buffer.from('{"n":1}\n'), isRecord)).toEqual({
      created: true,
      repair: 'none',
    });
    expect(readFileSync(path, 'utf8')).toBe('{"n":1}\n');
  });

  it('appends after a whole last line', () => {
    const path = join(tempDir(), 'log.jsonl');
    writeFileSync(path, '{"n":1}\n');
    expect(appendLines(path, Buffer.from('{"n":2}\n'), isRecord)).toEqual({
      created: false,
      repair: 'none',
    });
    expect(readFileSync(path, 'utf8')).toBe('{"n":1}\n{"n":2}\n');
  });

  it('cuts a torn last line so that it never glues onto the next record', () => {
    const path = join(tempDir(), 'log.jsonl');
    writeFileSync(path, '{"n":1}\n{"n":');
    expect(appendLines(path, Buffer.from('{"n":3}\n'), isRecord).repair).toBe('cut');
    expect(readFileSync(path, 'utf8')).toBe('{"n":1}\n{"n":3}\n');
  });

  it('cuts a file that is one torn line', () => {
    const path = join(tempDir(), 'log.jsonl');
    writeFileSync(path, '{"n');
    expect(appendLines(path, Buffer.from('{"n":3}\n'), isRecord).repair).toBe('cut');
    expect(readFileSync(path, 'utf8')).toBe('{"n":3}\n');
  });

  it('completes a whole record that lacks only its newline', () => {
    const path = join(tempDir(), 'log.jsonl');
    writeFileSync(path, '{"n":1}\n{"n":2}');
    expect(appendLines(path, Buffer.from('{"n":3}\n'), isRecord).repair).toBe('completed');
    expect(readFileSync(path, 'utf8')).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
  });

  it('finds the start of a torn line longer than its backward read', () => {
    const path = join(tempDir(), 'log.jsonl');
    writeFileSync(path, `{"n":1}\n{"pad":"${'x'.repeat(200_000)}`);
    appendLines(path, Buffer.from('{"n":3}\n'), isRecord);
    expect(readFileSync(path, 'utf8')).toBe('{"n":1}\n{"n":3}\n');
  });
});
