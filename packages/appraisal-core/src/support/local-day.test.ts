import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endOfLocalDay, isTimeZone } from './local-day.js';

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  const known = formatters.get(zone);
  if (known) return known;
  const made = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  formatters.set(zone, made);
  return made;
}

describe('endOfLocalDay', () => {
  it('ends a day at the last millisecond before local midnight', () => {
    expect(iso(endOfLocalDay('2026-09-26', 'UTC'))).toBe('2026-09-26T23:59:59.999Z');
    expect(iso(endOfLocalDay('2026-09-26', 'America/Los_Angeles'))).toBe(
      '2026-09-27T06:59:59.999Z',
    );
    expect(iso(endOfLocalDay('2026-09-26', 'Asia/Tokyo'))).toBe('2026-09-26T14:59:59.999Z');
    expect(iso(endOfLocalDay('2026-09-26', 'Asia/Kolkata'))).toBe('2026-09-26T18:29:59.999Z');
  });

  it('follows a daylight-saving change inside the day', () => {
    // Berlin leaves summer time in the night of 24–25 October 2026: that day has 25 hours.
    expect(iso(endOfLocalDay('2026-10-24', 'Europe/Berlin'))).toBe('2026-10-24T21:59:59.999Z');
    expect(iso(endOfLocalDay('2026-10-25', 'Europe/Berlin'))).toBe('2026-10-25T22:59:59.999Z');
    expect(iso(endOfLocalDay('2026-03-29', 'Europe/Berlin'))).toBe('2026-03-29T21:59:59.999Z');
  });

  it('is undefined for an unknown zone or a day that does not exist', () => {
    expect(endOfLocalDay('2026-09-26', 'Mars/Olympus_Mons')).toBeUndefined();
    expect(endOfLocalDay('2026-02-30', 'UTC')).toBeUndefined();
    expect(endOfLocalDay('26 September', 'UTC')).toBeUndefined();
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Nowhere/Nothing')).toBe(false);
  });

  it('falls on the same local date and is followed by the next one', () => {
    const zones = [
      'UTC',
      'America/New_York',
      'Europe/Berlin',
      'Asia/Tokyo',
      'Australia/Lord_Howe',
      'Pacific/Chatham',
    ];
    const dates = fc
      .date({
        min: new Date('2000-01-01T00:00:00Z'),
        max: new Date('2040-12-31T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((date) => date.toISOString().slice(0, 10));
    fc.assert(
      fc.property(dates, fc.constantFrom(...zones), (date, zone) => {
        const end = endOfLocalDay(date, zone);
        expect(end).toBeDefined();
        const local = (ms: number) => formatter(zone).format(new Date(ms));
        expect(local(end as number)).toBe(date);
        expect(local((end as number) + 1)).not.toBe(date);
      }),
    );
  });
});
