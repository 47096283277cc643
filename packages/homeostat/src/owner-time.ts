import { couldNotRead, type Reading, readValue } from './reading.js';

/** The parts of the owner's day, as bands: the brief never prints the clock. */
export type PartOfDay = 'early morning' | 'morning' | 'afternoon' | 'evening' | 'night';

/** Quiet hours the owner set, as `HH:MM` local times; `end` before `start` wraps past midnight. */
export interface QuietHours {
  readonly start: string;
  readonly end: string;
}

/** The brief's time field: the owner's weekday and part of day, and their quiet hours. */
export interface OwnerTime {
  readonly weekday: string;
  readonly partOfDay: PartOfDay;
  /** `none_recorded` when no quiet hours are set; unread when the settings could not be read. */
  readonly quietHours: Reading<'inside' | 'outside' | 'none_recorded'>;
}

function partOfDay(hour: number): PartOfDay {
  if (hour < 5) return 'night';
  if (hour < 8) return 'early morning';
  if (hour < 12) return 'morning';
  if (hour < 17) return 'afternoon';
  if (hour < 22) return 'evening';
  return 'night';
}

function minutes(clock: string): number | undefined {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(clock);
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined;
}

/**
 * The owner's local weekday and part of day at `now` (epoch milliseconds) in `timeZone`, and
 * whether that falls inside their quiet hours. No quiet hours set means none are recorded — not
 * any default. An unknown time zone is a failed reading.
 */
export function ownerTime(
  now: number,
  timeZone: string,
  quietHours: Reading<QuietHours | undefined>,
): Reading<OwnerTime> {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'long',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
    }).formatToParts(now);
  } catch {
    return couldNotRead(`the time zone ${JSON.stringify(timeZone)} is not known`);
  }
  const part = (type: string) => parts.find((each) => each.type === type)?.value;
  const weekday = part('weekday');
  const hour = Number(part('hour'));
  const minute = Number(part('minute'));
  if (weekday === undefined || !Number.isInteger(hour) || !Number.isInteger(minute)) {
    return couldNotRead('the local time could not be worked out');
  }
  let quiet: Reading<'inside' | 'outside' | 'none_recorded'>;
  if (quietHours.state !== 'read') quiet = quietHours;
  else if (quietHours.value === undefined) quiet = readValue('none_recorded');
  else {
    const start = minutes(quietHours.value.start);
    const end = minutes(quietHours.value.end);
    if (start === undefined || end === undefined) {
      quiet = couldNotRead('the quiet hours are not HH:MM times');
    } else {
      const at = hour * 60 + minute;
      const inside = start <= end ? at >= start && at < end : at >= start || at < end;
      quiet = readValue(inside ? 'inside' : 'outside');
    }
  }
  return readValue({ weekday, partOfDay: partOfDay(hour), quietHours: quiet });
}
