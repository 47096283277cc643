import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { auditSelfImageOverTime, readGapHistory } from './gap-history.js';

const root = mkdtempSync(join(tmpdir(), 'gap-history-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const evidence = (selfGrade: number) => [
  { skill: 'news', selfGrade, attempts: 20, verifiedSuccesses: 10 },
];

describe('the belief-behaviour gap over time', () => {
  it('records a reading per audit and calls a trend only from enough history', () => {
    const path = join(root, 'widening.jsonl');
    const grades = [0.55, 0.6, 0.7, 0.8, 0.9];
    const trends = grades.map(
      (grade, day) =>
        auditSelfImageOverTime(evidence(grade), path, new Date(Date.UTC(2026, 10, day + 1))).trend
          ?.status,
    );
    expect(trends).toEqual([
      'too little history',
      'too little history',
      'too little history',
      'too little history',
      'widening',
    ]);
    expect(readGapHistory(path).readings).toHaveLength(5);
  });

  it('skips a torn line and says so, and treats an unreadable history as unknown', () => {
    const path = join(root, 'torn.jsonl');
    auditSelfImageOverTime(evidence(0.6), path, new Date('2026-11-01T00:00:00Z'));
    appendFileSync(path, '{"v":1,"at":"2026-11-02');
    expect(readGapHistory(path)).toMatchObject({ readable: true, skipped: 1 });
    const folder = join(root, 'a-folder');
    mkdirSync(folder);
    const result = auditSelfImageOverTime(evidence(0.6), folder, new Date());
    expect(result.history.readable).toBe(false);
    expect(result.trend).toBeNull();
    expect(result.recorded).toBe(false);
  });
});
