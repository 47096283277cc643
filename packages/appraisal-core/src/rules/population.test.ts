import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { at } from '../__fixtures__/records.js';
import type { SessionListing } from '../ports/appraisal-ports.js';
import { selectPopulation } from './population.js';

const listing = (sessionId: string, extra: Partial<SessionListing> = {}): SessionListing => ({
  sessionId,
  startedAt: at(0),
  kind: 'ordinary',
  surface: 'cli',
  ...extra,
});

describe('selectPopulation', () => {
  const now = new Date(at(24));

  it('keeps a session listed twice once, and orders members by id whatever the listing order', () => {
    const entries = [listing('s-b'), listing('s-a'), listing('s-b', { surface: 'web' })];
    fc.assert(
      fc.property(fc.shuffledSubarray(entries, { minLength: 3, maxLength: 3 }), (order) => {
        const population = selectPopulation(order, { now });
        expect(population.members.map((member) => member.sessionId)).toEqual(['s-a', 's-b']);
      }),
    );
  });

  it('counts a session whose head could not be read, under a surface filter too', () => {
    const entries: SessionListing[] = [
      { sessionId: 's-1', startedAt: at(0), kind: 'ordinary' },
      { sessionId: 's-2', startedAt: at(0) },
    ];
    expect(selectPopulation(entries, { now }).headUnreadable).toBe(1);
    expect(selectPopulation(entries, { now, kind: 'web' }).headUnreadable).toBe(2);
    expect(selectPopulation(entries, { now, kind: 'test' }).headUnreadable).toBe(1);
  });

  it('takes the window from now and the number of days', () => {
    const entries = [listing('s-new'), listing('s-old', { startedAt: at(-24 * 10) })];
    expect(selectPopulation(entries, { now, days: 5 }).members.map((m) => m.sessionId)).toEqual([
      's-new',
    ]);
    expect(selectPopulation(entries, { now }).members).toHaveLength(2);
  });

  it('keeps a session that began at the very start of the window, and not one a millisecond before', () => {
    const since = at(24 - 5 * 24);
    const before = new Date(Date.parse(since) - 1).toISOString();
    const entries = [
      listing('s-edge', { startedAt: since }),
      listing('s-before', { startedAt: before }),
    ];
    const population = selectPopulation(entries, { now, days: 5 });
    expect(population.since).toBe(Date.parse(since));
    expect(population.members.map((m) => m.sessionId)).toEqual(['s-edge']);
  });
});
