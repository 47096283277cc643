import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { spanIdFor, traceIdFor } from './span-ids.js';

const id = fc.string({ minLength: 1, maxLength: 40 });

describe('span ids', () => {
  it('are valid OTLP ids: 32 and 16 lower-case hex digits, never all zero', () => {
    fc.assert(
      fc.property(id, id, (session, run) => {
        for (const [value, length] of [
          [traceIdFor(session), 32],
          [spanIdFor(session), 16],
          [spanIdFor(session, run), 16],
        ] as const) {
          expect(value).toMatch(new RegExp(`^[0-9a-f]{${length}}$`));
          expect(value).not.toMatch(/^0+$/);
        }
      }),
    );
  });

  it('are the same for the same ids, every time (the export is idempotent)', () => {
    fc.assert(
      fc.property(id, id, (session, run) => {
        expect(traceIdFor(session)).toBe(traceIdFor(`${session}`));
        expect(spanIdFor(session, run)).toBe(spanIdFor(session, run));
      }),
    );
    expect(traceIdFor('20261201T190102-d47dbe5a')).toBe(traceIdFor('20261201T190102-d47dbe5a'));
  });

  it('differ for different sessions and runs, and a run never takes its session span id', () => {
    fc.assert(
      fc.property(id, id, id, (a, b, run) => {
        fc.pre(a !== b);
        expect(traceIdFor(a)).not.toBe(traceIdFor(b));
        expect(spanIdFor(a, run)).not.toBe(spanIdFor(b, run));
        expect(spanIdFor(a, run)).not.toBe(spanIdFor(a));
      }),
    );
    // Joined parts that read alike stay apart.
    expect(spanIdFor('ab', 'c')).not.toBe(spanIdFor('a', 'bc'));
  });
});
