import { describe, expect, it } from 'vitest';
import type { DistillReport } from './distill/distill-report.js';
import { formatDistillReport } from './format-distill-report.js';

const report = (overrides: Partial<DistillReport> = {}): DistillReport => ({
  server: 'graph',
  readBackUntrusted: true,
  dryRun: false,
  listed: 10,
  alreadyDistilled: 4,
  excluded: 1,
  considered: 5,
  partialStores: false,
  counts: {
    pushed: 2,
    skipped: 1,
    too_short: 0,
    push_failed: 1,
    model_failed: 1,
    given_up: 0,
    unreadable: 0,
    running: 0,
    parked: 0,
    already_distilled: 0,
    not_marked: 0,
    ledger_unavailable: 0,
    would_distill: 0,
    would_mark_too_short: 0,
  },
  graph: { inserted: 2, updated: 0, unchanged: 0 },
  corrections: {
    reported: 3,
    sent: 1,
    ungrounded: 0,
    withheld: 2,
    applied: 0,
    denied: 0,
    toReview: 1,
    duplicate: 0,
  },
  surprises: {
    reported: 1,
    sent: 0,
    withheld: 1,
    items: [
      {
        sessionId: 's-1',
        about: 'deadline',
        graphSaid: 'the 14th',
        found: 'the 9th',
        sentToGraph: false,
      },
    ],
  },
  appraisals: {
    written: 2,
    onRecord: 0,
    failed: 0,
    claimsKept: 2,
    claimsDropped: { no_such_referent: 2 },
    goalsUnresolved: 1,
    storeUnreadable: false,
  },
  facts: { episodes: 0, entities: 0, relations: 0, dropped: {}, failed: 0 },
  modelCalls: 7,
  graphCalls: 3,
  ledgerReads: 5,
  sessions: [],
  ...overrides,
});

describe('formatDistillReport', () => {
  it('says what was pushed, what is left, and how many corrections and surprises were withheld', () => {
    expect(formatDistillReport({ state: 'done', report: report() })).toEqual([
      "distilled 3 sessions into 'graph': 2 pushed (2 new, 0 updated, 0 unchanged) · 1 skipped · 0 too short",
      'left for a later run: 1 push failed · 1 model call failed',
      'corrections: 1 sent (0 applied, 0 denied, 1 to review, 0 already known) · 2 withheld (timeline not known clean)',
      'surprises: 0 sent to the graph · 1 withheld (timeline not known clean or not pushed)',
      '  s-1 · deadline: the graph said "the 14th", the session found "the 9th" (not in the graph) → mecha gossip --entity "deadline"',
      'text appraisals: 2 written · claims 2 kept, 2 dropped by grounding (no_such_referent 2) · 1 goal not held by mecha, recorded as none',
    ]);
  });

  it('says how many candidate facts the model extracted, how many were left out and why', () => {
    const lines = formatDistillReport({
      state: 'done',
      report: report({
        facts: {
          episodes: 2,
          entities: 3,
          relations: 1,
          dropped: { quote_not_in_episode: 1, not_in_episode: 2 },
          failed: 1,
        },
      }),
    });
    expect(lines).toContain(
      "candidate facts for review: 3 entities and 1 relation extracted by the model from 2 episodes · 3 not in the episode's words, left out (not_in_episode 2, quote_not_in_episode 1) · 1 extraction failed (the graph reads that prose itself)",
    );
  });

  it('prints the refusal as the one line', () => {
    expect(
      formatDistillReport({ state: 'cannot_run', reason: 'no_server', message: 'no server' }),
    ).toEqual(['no server']);
  });

  it('warns when the graph’s read-back is not marked untrusted', () => {
    expect(
      formatDistillReport({ state: 'done', report: report({ readBackUntrusted: false }) })[0],
    ).toMatch(/^warning: \[\[mcp\]\] 'graph' is not marked untrusted_input/);
  });

  it('says why a run stopped early', () => {
    const lines = formatDistillReport({
      state: 'done',
      report: report({ stopped: { reason: 'aborted', message: 'stopped on request' } }),
    });
    expect(lines.at(-1)).toBe('stopped early: stopped on request');
  });
});

describe('a dry run', () => {
  const wouldDistill = (count: number) =>
    Array.from({ length: count }, (_, index) => ({
      sessionId: `s-${index + 1}`,
      outcome: 'would_distill' as const,
    }));

  it('names the first few sessions and counts the rest, however many there are', () => {
    const lines = formatDistillReport({
      state: 'done',
      report: report({
        dryRun: true,
        counts: { ...report().counts, would_distill: 116 },
        sessions: wouldDistill(116),
      }),
    });
    expect(lines).toEqual([
      "dry run: 116 sessions would be distilled into 'graph', 0 sessions marked too short; no model call, nothing written",
      '  s-1',
      '  s-2',
      '  s-3',
      '  s-4',
      '  s-5',
      '  … and 111 more (--json lists every one)',
    ]);
  });

  it('names every session when there are only a few', () => {
    const lines = formatDistillReport({
      state: 'done',
      report: report({
        dryRun: true,
        counts: { ...report().counts, would_distill: 2 },
        sessions: wouldDistill(2),
      }),
    });
    expect(lines.slice(1)).toEqual(['  s-1', '  s-2']);
  });
});
