import { describe, expect, it } from 'vitest';
import { gradeReflection } from './reflection-oracle.js';
import { gradeRetrieval, queryLeaked } from './retrieval-oracle.js';

describe('the retrieval oracle', () => {
  const index: Record<string, string[]> = {
    'open a sqlite file': ['better-sqlite3.Database', 'fs.open'],
    'stream a large file': ['fs.readFile'],
  };
  const retrieve = async (query: string) => index[query] ?? [];

  it('grades hits and misses, refuses an unfalsifiable label, and catches a leaked query', async () => {
    const grades = await gradeRetrieval(
      [
        {
          id: 'hit',
          query: 'open a sqlite file',
          expected: ['better-sqlite3.Database'],
          basis: 'docs',
        },
        {
          id: 'miss',
          query: 'stream a large file',
          expected: ['fs.createReadStream'],
          basis: 'docs',
        },
        { id: 'no-basis', query: 'open a sqlite file', expected: ['better-sqlite3.Database'] },
        {
          id: 'leak',
          query: 'open a sqlite file',
          expected: ['better-sqlite3.Database'],
          basis: 'docs',
          aliases: { 'better-sqlite3.Database': ['open sqlite file database'] },
        },
      ],
      retrieve,
    );
    expect(grades.map((grade) => [grade.id, grade.verdict])).toEqual([
      ['hit', 'CORRECT'],
      ['miss', 'WRONG'],
      ['no-basis', 'ABSTAIN'],
      ['leak', 'UNSOUND'],
    ]);
    expect(grades[2]?.reason).toContain('unfalsifiable');
  });

  it('does not call a query leaked for a single shared word', () => {
    expect(
      queryLeaked({
        id: 'x',
        query: 'rotate the signing keys weekly',
        expected: ['kms'],
        aliases: { kms: ['keys'] },
      }),
    ).toBe(false);
  });
});

describe('the reflection oracle', () => {
  it('grades only claims about behaviour and abstains on everything else', () => {
    const evidence = [
      { skill: 'news', selfGrade: 0.5, attempts: 20, verifiedSuccesses: 18 },
      { skill: 'code', selfGrade: 0.5, attempts: 20, verifiedSuccesses: 6 },
    ];
    const grades = gradeReflection(
      [
        { text: 'I am bad at news', kind: 'behaviour', skill: 'news', selfGrade: 0.2 },
        { text: 'I am reliable at code', kind: 'behaviour', skill: 'code', selfGrade: 0.9 },
        { text: 'I should plan more', kind: 'prescription' },
        { text: 'A good week', kind: 'headline' },
        { text: 'I feel calm', kind: 'mood' },
        { text: 'I am reliable at maths', kind: 'behaviour', skill: 'maths', selfGrade: 0.9 },
      ],
      evidence,
    );
    expect(grades.map((grade) => [grade.verdict, grade.reason])).toEqual([
      ['WRONG', 'undue self-doubt'],
      ['UNSOUND', 'flattery'],
      ['ABSTAIN', 'not a claim about behaviour: ungraded'],
      ['ABSTAIN', 'not a claim about behaviour: ungraded'],
      ['ABSTAIN', 'not a claim about behaviour: ungraded'],
      ['ABSTAIN', 'no behaviour recorded for maths'],
    ]);
  });
});
