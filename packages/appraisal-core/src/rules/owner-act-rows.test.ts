import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  closure,
  end,
  hour,
  outcome,
  parked,
  settled,
  start,
} from '../__fixtures__/evidence-builders.js';
import type { DraftOutcome } from '../schemas/outbox.js';
import { closureRow, completedAfter, draftVerdictRow } from './owner-act-rows.js';
import {
  closureWithdrawals,
  firstSettlements,
  firstVerdicts,
  isClosing,
  isReopen,
} from './owner-acts.js';

const statuses = ['inbox', 'next', 'waiting', 'done', 'dropped'] as const;
const senders = ['owner', 'run_shell', 'unrecorded'] as const;

describe('draftVerdictRow: the row each deciding verdict signs', () => {
  // Written out whole: every outcome by every sender, so an emptied case (which falls through
  // to the next one) or a swapped row shows as a wrong cell.
  const table: Record<
    DraftOutcome['outcome'],
    Record<(typeof senders)[number], string | undefined>
  > = {
    sent_unchanged: { owner: 'draftSentUnchanged', run_shell: undefined, unrecorded: undefined },
    sent_edited: { owner: 'draftSentEdited', run_shell: undefined, unrecorded: 'draftSentEdited' },
    rejected: { owner: 'draftRejected', run_shell: undefined, unrecorded: 'draftRejected' },
    cancelled: { owner: undefined, run_shell: undefined, unrecorded: undefined },
  };

  it('signs an edited send as an edit, never as a rejection, and each other cell as the table says', () => {
    for (const [result, bySender] of Object.entries(table)) {
      for (const [sender, row] of Object.entries(bySender)) {
        const verdict = outcome('d-1', result as DraftOutcome['outcome'], sender as never);
        expect({ result, sender, row: draftVerdictRow(verdict) }).toEqual({ result, sender, row });
      }
    }
  });

  it('signs nothing when there is no verdict yet', () => {
    expect(draftVerdictRow(undefined)).toBeUndefined();
  });
});

describe('isReopen and isClosing', () => {
  it('reads a move out of done or dropped as a reopen, and a move into them as a close', () => {
    expect(isReopen(closure('c', 'done', 'next'))).toBe(true);
    expect(isReopen(closure('c', 'dropped', 'inbox'))).toBe(true);
    expect(isClosing(closure('c', 'next', 'done'))).toBe(true);
    expect(isClosing(closure('c', 'waiting', 'dropped'))).toBe(true);
  });

  it('reads a record naming the closure it undoes as a reopen, whatever statuses it moves between', () => {
    const named = closure('c', 'next', 'done', { reopens: 'close-1' });
    expect(isReopen(named)).toBe(true);
    expect(isClosing(named)).toBe(false);
  });

  it('reads a re-close (done → dropped) as a close, and a move between open statuses as neither', () => {
    expect(isReopen(closure('c', 'done', 'dropped'))).toBe(false);
    expect(isClosing(closure('c', 'done', 'dropped'))).toBe(true);
    for (const [from, to] of [
      ['next', 'waiting'],
      ['inbox', 'next'],
      ['waiting', 'waiting'],
    ] as const) {
      expect([isReopen(closure('c', from, to)), isClosing(closure('c', from, to))]).toEqual([
        false,
        false,
      ]);
    }
  });

  it('never reads one record as both, and a close always ends in done or dropped', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...statuses),
        fc.constantFrom(...statuses),
        fc.boolean(),
        (from, to, names) => {
          const record = closure('c', from, to, names ? { reopens: 'close-0' } : {});
          expect(isReopen(record) && isClosing(record)).toBe(false);
          if (isClosing(record)) expect(['done', 'dropped']).toContain(record.to);
          if (names) expect(isReopen(record)).toBe(true);
        },
      ),
    );
  });
});

describe('closureRow', () => {
  it('signs a drop, a done by someone known, and nothing for an unknown done, a reopen or a move', () => {
    expect(closureRow(closure('c', 'next', 'dropped', { who: 'unknown' }))).toBe(
      'taskClosedDropped',
    );
    expect(closureRow(closure('c', 'next', 'done'))).toBe('taskClosedDone');
    expect(closureRow(closure('c', 'next', 'done', { who: 'agent_with_approval' }))).toBe(
      'taskClosedDone',
    );
    expect(closureRow(closure('c', 'next', 'done', { who: 'unknown' }))).toBeUndefined();
    expect(closureRow(closure('c', 'done', 'next'))).toBeUndefined();
    expect(closureRow(closure('c', 'next', 'waiting'))).toBeUndefined();
  });
});

describe('closureWithdrawals', () => {
  it('maps each closure to the first later reopen naming it', () => {
    const close = closure('close-1', 'next', 'done', { at: 10 });
    const first = closure('reopen-1', 'done', 'next', { at: 11, reopens: 'close-1' });
    const second = closure('reopen-2', 'done', 'next', { at: 12, reopens: 'close-1' });
    const found = closureWithdrawals([second, close, first]);
    expect([...found.entries()]).toEqual([['close-1', first]]);
  });

  it('withdraws nothing for a reopen recorded before its closure, or for a repeated closure id', () => {
    const early = closure('reopen-1', 'done', 'next', { at: 9, reopens: 'close-1' });
    const close = closure('close-1', 'next', 'done', { at: 10 });
    expect(closureWithdrawals([close, early]).size).toBe(0);
    const repeat = closure('close-1', 'done', 'next', { at: 11, reopens: 'close-1' });
    expect(closureWithdrawals([close, repeat]).size).toBe(0);
  });
});

describe('completedAfter', () => {
  const answeredAt = Date.parse(hour(2));

  it('is the earliest completed end of a run that began at or after the answer', () => {
    const events = [
      start('before', 1),
      end('before', 'completed', 3),
      start('late', 4),
      end('late', 'completed', 6),
      start('at', 2),
      end('at', 'completed', 5),
      start('failed', 2.5),
      end('failed', 'error', 2.7),
    ];
    expect(completedAfter(events, answeredAt, true)).toBe(hour(5));
    // The earlier end first in the list: a later one must not replace it.
    const earlierFirst = [
      start('at', 2),
      end('at', 'completed', 5),
      start('late', 4),
      end('late', 'completed', 6),
    ];
    expect(completedAfter(earlierFirst, answeredAt, true)).toBe(hour(5));
  });

  it('keeps the first of two ends at the same instant, in store order, however each is written', () => {
    const sameInstant = hour(5).replace('Z', '+00:00');
    const events = [
      start('a', 3),
      end('a', 'completed', 5),
      start('b', 3),
      { ...end('b', 'completed', 5), at: sameInstant },
    ];
    expect(completedAfter(events, answeredAt, true)).toBe(hour(5));
  });

  it('is undefined when none finished in a whole transcript, and unreadable in a partial one', () => {
    const events = [start('run', 3), end('run', 'error', 4)];
    expect(completedAfter(events, answeredAt, true)).toBeUndefined();
    expect(completedAfter(events, answeredAt, false)).toBe('unreadable');
    expect(completedAfter([start('run', 3), end('run', 'completed', 4)], answeredAt, false)).toBe(
      hour(4),
    );
  });
});

describe('firstVerdicts and firstSettlements', () => {
  it('keep each draft’s first outcome, ties in store order', () => {
    const later = outcome('d-1', 'rejected', 'owner', 6);
    const first = outcome('d-1', 'sent_edited', 'owner', 5);
    const tie = outcome('d-1', 'cancelled', 'owner', 5);
    expect(firstVerdicts([later, first, tie]).get('d-1')).toBe(first);
  });

  it('keep each question’s first answer or abandonment, never a parking', () => {
    const park = parked('q-1', 0.1);
    const answer = settled('q-1', 'answered', 1);
    const abandon = settled('q-1', 'abandoned', 3);
    expect(firstSettlements([park, abandon, answer]).get('q-1')).toBe(answer);
    expect(firstSettlements([park]).size).toBe(0);
  });
});
