// The board's query and form parsers: whatever a stranger puts in a query string or a form,
// each answers a value or a `bad_request` refusal with a message, and never throws.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBoardQuery } from '../src/pages/board-page.js';
import { charterChangeOf } from '../src/pages/charter-page.js';
import { maxSearch, parseRunsQuery, runsSorts } from '../src/pages/runs-page.js';

const runs = Number(process.env.MECHA_PROPERTY_RUNS ?? 200);

/** A query or form field: absent, empty, a likely value or any text. */
const field = (likely: readonly string[]) =>
  fc.option(fc.oneof(fc.constant(''), fc.constantFrom(...likely), fc.string({ maxLength: 12 })), {
    nil: undefined,
  });

describe('parseBoardQuery', () => {
  it('refuses a bad status or page with a message, else lists one status from page 1', () => {
    fc.assert(
      fc.property(
        field(['inbox', 'next', 'done', 'nope']),
        field(['1', '2', '0', '-1', '1.5', '9999999']),
        field(['t1']),
        (status, page, task) => {
          const parsed = parseBoardQuery({ status, page, task });
          if (parsed._tag === 'Left') {
            expect(parsed.left.kind).toBe('bad_request');
            expect(parsed.left.message).toMatch(/^(status|page) takes /);
            return;
          }
          expect(Number.isInteger(parsed.right.page) && parsed.right.page >= 1).toBe(true);
          if (page !== undefined && page !== '') expect(parsed.right.page).toBe(Number(page));
          expect(parsed.right.status).toBe(status === '' ? undefined : status);
          expect(parsed.right.task).toBe(task === '' ? undefined : task);
        },
      ),
      { numRuns: runs },
    );
  });

  it('names the statuses it takes', () => {
    expect(parseBoardQuery({ status: 'later' })).toEqual({
      _tag: 'Left',
      left: {
        kind: 'bad_request',
        message: expect.stringMatching(/^status takes one of inbox, /),
      },
    });
    expect(parseBoardQuery({ page: '0' })).toEqual({
      _tag: 'Left',
      left: { kind: 'bad_request', message: 'page takes a whole number from 1' },
    });
  });
});

describe('parseRunsQuery', () => {
  it('answers a query within its bounds or refuses it with a message', () => {
    fc.assert(
      fc.property(
        field(['1', '3', '0', 'x']),
        field(['7', '30', '0']),
        field(['web', 'task', 'Web!']),
        field([...runsSorts, 'sideways']),
        fc.option(fc.string({ maxLength: maxSearch + 20 }), { nil: undefined }),
        (page, days, kind, sort, q) => {
          const parsed = parseRunsQuery({ page, days, kind, sort, q });
          if (parsed._tag === 'Left') {
            expect(parsed.left.kind).toBe('bad_request');
            expect(parsed.left.message).not.toBe('');
            return;
          }
          const query = parsed.right;
          expect(query.page).toBeGreaterThanOrEqual(1);
          if (query.days !== undefined) expect(query.days).toBeGreaterThanOrEqual(1);
          if (query.sort !== undefined) expect(runsSorts).toContain(query.sort);
          if (query.q !== undefined) {
            expect(query.q.length).toBeGreaterThan(0);
            expect(query.q.length).toBeLessThanOrEqual(maxSearch);
          }
        },
      ),
      { numRuns: runs },
    );
  });

  it('refuses a search longer than it takes', () => {
    const parsed = parseRunsQuery({ q: 'x'.repeat(maxSearch + 1) });
    expect(parsed).toEqual({
      _tag: 'Left',
      left: { kind: 'bad_request', message: `the search takes at most ${maxSearch} characters` },
    });
  });
});

describe('charterChangeOf', () => {
  const ops = [
    'add',
    'move',
    'remove',
    'set_text',
    'set_sensor',
    'set_setpoint',
    'clear_sensor',
    'clear_setpoint',
    'rename',
  ];
  it('reads a form into the change its op names, or refuses it with a message', () => {
    fc.assert(
      fc.property(
        field(ops),
        field(['a1', ' ']),
        field(['a line']),
        field(['outbox_age', 'question_latency', 'mood']),
        field(['48h', '2d', 'soon']),
        field(['1', '3', '0', 'x']),
        (op, id, text, sensor, setpoint, rank) => {
          const parsed = charterChangeOf({ op, id, text, sensor, setpoint, rank });
          if (parsed._tag === 'Left') {
            expect(parsed.left.kind).toBe('bad_request');
            expect(parsed.left.message).not.toBe('');
            return;
          }
          expect(parsed.right.change.op).toBe(op);
          expect(parsed.right.done).toMatch(/line/);
        },
      ),
      { numRuns: runs },
    );
  });

  it('says what an add is missing in the form’s words', () => {
    expect(charterChangeOf({ op: 'add', id: 'a1' })).toEqual({
      _tag: 'Left',
      left: { kind: 'bad_request', message: 'give the line an id and its text' },
    });
    expect(charterChangeOf({ op: 'rename' })).toEqual({
      _tag: 'Left',
      left: { kind: 'bad_request', message: 'unknown charter edit' },
    });
  });
});
