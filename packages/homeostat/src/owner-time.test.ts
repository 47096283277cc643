import { describe, expect, it } from 'vitest';
import { ownerTime } from './owner-time.js';
import { couldNotRead, readValue } from './reading.js';

// Friday 2026-09-25, 13:30 UTC.
const now = Date.parse('2026-09-25T13:30:00Z');

describe('ownerTime', () => {
  it('gives the weekday and part of day in the owner’s time zone', () => {
    expect(ownerTime(now, 'UTC', readValue(undefined))).toEqual({
      state: 'read',
      value: { weekday: 'Friday', partOfDay: 'afternoon', quietHours: readValue('none_recorded') },
    });
    expect(ownerTime(now, 'Pacific/Auckland', readValue(undefined))).toMatchObject({
      value: { weekday: 'Saturday', partOfDay: 'night' },
    });
  });

  it('says whether it is inside quiet hours, including hours that wrap past midnight', () => {
    const quiet = (start: string, end: string, zone = 'UTC') =>
      ownerTime(now, zone, readValue({ start, end }));
    expect(quiet('13:00', '14:00')).toMatchObject({ value: { quietHours: readValue('inside') } });
    expect(quiet('14:00', '13:00')).toMatchObject({ value: { quietHours: readValue('outside') } });
    expect(quiet('22:00', '08:00', 'Pacific/Auckland')).toMatchObject({
      value: { quietHours: readValue('inside') },
    });
  });

  it('records no quiet hours when none are set, rather than a default', () => {
    expect(ownerTime(now, 'UTC', readValue(undefined))).toMatchObject({
      value: { quietHours: readValue('none_recorded') },
    });
  });

  it('reads an unknown time zone or malformed hours as unread, not as a guess', () => {
    expect(ownerTime(now, 'Mars/Olympus', readValue(undefined)).state).toBe('unreadable');
    expect(ownerTime(now, 'UTC', readValue({ start: '10pm', end: '8am' }))).toMatchObject({
      value: { quietHours: { state: 'unreadable' } },
    });
    expect(ownerTime(now, 'UTC', couldNotRead('attention.toml is torn'))).toMatchObject({
      value: { quietHours: { state: 'unreadable', reason: 'attention.toml is torn' } },
    });
  });
});
