import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, describe, expect, it } from 'vitest';
import {
  appendLedger,
  type LedgerEntry,
  ledgerFile,
  ledgerPointers,
  readLedger,
  readLedgerEntry,
} from './import-ledger.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mecha-ledger-'));
  made.push(dir);
  mkdirSync(join(dir, 'imports'), { recursive: true });
  return dir;
}

const entry = (file: string, offset: number): LedgerEntry => ({
  v: 1,
  at: new Date(Date.UTC(2026, 0, 1, 0, 0, offset % 60)).toISOString(),
  file,
  offset,
  line: offset,
  session_id: null,
  transcript_bytes: null,
  state: null,
});

const append = (path: string, file: string, offset: number) => {
  const done = appendLedger(path, 'claude-code', [entry(file, offset)]);
  if (E.isLeft(done)) throw new Error(done.left);
};

const newest = (path: string, file: string) => {
  const read = readLedgerEntry(path, 'claude-code', file);
  if (E.isLeft(read)) throw new Error(read.left);
  return read.right;
};

describe('readLedgerEntry', () => {
  it('reads one file’s newest entry from its pointer, without reading the lines before it', () => {
    const path = home();
    append(path, '/logs/a.jsonl', 10);
    append(path, '/logs/b.jsonl', 20);
    append(path, '/logs/a.jsonl', 30);
    // A damaged line before a.jsonl's newest entry: the whole ledger cannot be read past it...
    const ledger = join(path, ledgerFile('claude-code'));
    const lines = readFileSync(ledger, 'utf8').split('\n');
    // (the same length, so the bytes after it stay where they were).
    lines[0] = `X${(lines[0] as string).slice(1)}`;
    writeFileSync(ledger, lines.join('\n'));
    expect(E.isLeft(readLedger(path, 'claude-code'))).toBe(true);
    // ...but a.jsonl's pointer starts after it, so its entry is read without it.
    expect(newest(path, '/logs/a.jsonl')).toMatchObject({ offset: 30 });
    // b.jsonl's pointer starts after the damage too; a file with no pointer reads it all.
    expect(newest(path, '/logs/b.jsonl')).toMatchObject({ offset: 20 });
    expect(E.isLeft(readLedgerEntry(path, 'claude-code', '/logs/c.jsonl'))).toBe(true);
  });

  it('a damaged line after the pointer stops the read, as the whole ledger’s read does', () => {
    const path = home();
    append(path, '/logs/a.jsonl', 10);
    appendFileSync(join(path, ledgerFile('claude-code')), 'not json\n');
    append(path, '/logs/b.jsonl', 20);
    expect(E.isLeft(readLedgerEntry(path, 'claude-code', '/logs/a.jsonl'))).toBe(true);
  });

  it('a pointer into a ledger that was edited sends the read to the whole ledger', () => {
    const path = home();
    append(path, '/logs/a.jsonl', 10);
    append(path, '/logs/b.jsonl', 20);
    append(path, '/logs/a.jsonl', 30);
    // The owner removes a.jsonl's lines to import it again from scratch (docs/importers.md).
    const ledger = join(path, ledgerFile('claude-code'));
    const kept = readFileSync(ledger, 'utf8')
      .split('\n')
      .filter((line) => !line.includes('/logs/a.jsonl'));
    writeFileSync(ledger, kept.join('\n'));
    expect(newest(path, '/logs/a.jsonl')).toBeUndefined();
    expect(newest(path, '/logs/b.jsonl')).toMatchObject({ offset: 20 });
  });

  it('always agrees with the whole ledger, whatever pointers a crash left missing or stale', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.constantFrom('fresh', 'missing', 'stale'), { minLength: 4, maxLength: 4 }),
        (writes, fates) => {
          const path = home();
          const files = [0, 1, 2, 3].map((index) => `/logs/${index}.jsonl`);
          const folder = join(path, ledgerPointers('claude-code'));
          // Each file's first pointer, kept to play a stale one back.
          const first = new Map<number, string>();
          for (const [step, index] of writes.entries()) {
            append(path, files[index] as string, step + 1);
            if (!first.has(index)) {
              const names = readdirSync(folder);
              const copy = join(path, `first-${index}`);
              for (const name of names) {
                const text = readFileSync(join(folder, name), 'utf8');
                if (text.includes(`"${files[index]}"`)) copyFileSync(join(folder, name), copy);
              }
              first.set(index, copy);
            }
          }
          for (const name of readdirSync(folder)) {
            const text = readFileSync(join(folder, name), 'utf8');
            const index = files.findIndex((file) => text.includes(`"${file}"`));
            const fate = fates[index];
            if (fate === 'missing') rmSync(join(folder, name));
            const stale = first.get(index);
            if (fate === 'stale' && stale !== undefined && existsSync(stale)) {
              copyFileSync(stale, join(folder, name));
            }
          }
          const whole = readLedger(path, 'claude-code');
          if (E.isLeft(whole)) throw new Error(whole.left);
          for (const file of files) {
            expect(newest(path, file)).toEqual(whole.right.get(file));
          }
          rmSync(path, { recursive: true, force: true });
        },
      ),
      { numRuns: 30 },
    );
  });
});
