const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat | undefined {
  const known = formatters.get(timeZone);
  if (known !== undefined) return known;
  try {
    const made = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, made);
    return made;
  } catch {
    return undefined;
  }
}

/** Whether `timeZone` is an IANA zone this runtime knows (`Europe/Berlin`, `UTC`, …). */
export function isTimeZone(timeZone: string): boolean {
  return formatterFor(timeZone) !== undefined;
}

// How far the zone's wall clock is ahead of UTC at the instant `utc` (whole seconds).
function offsetAt(utc: number, formatter: Intl.DateTimeFormat): number {
  const field = (parts: Intl.DateTimeFormatPart[], type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((part) => part.type === type)?.value);
  const parts = formatter.formatToParts(new Date(utc));
  const wall = Date.UTC(
    field(parts, 'year'),
    field(parts, 'month') - 1,
    field(parts, 'day'),
    field(parts, 'hour'),
    field(parts, 'minute'),
    field(parts, 'second'),
  );
  return wall - (utc - (((utc % 1000) + 1000) % 1000));
}

/**
 * The last millisecond of the calendar day `date` (`2026-09-30`) on the wall clock of
 * `timeZone`, as epoch milliseconds: a due date with no time runs through that moment.
 * `undefined` when the zone is unknown or the date is not a real day.
 */
export function endOfLocalDay(date: string, timeZone: string): number | undefined {
  const formatter = formatterFor(timeZone);
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (formatter === undefined || match === null) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined;
  // The next local midnight: guess it as UTC, then correct by the zone's offset twice, so a
  // daylight-saving change between the guess and the answer is taken into account.
  const wallMidnight = Date.UTC(year, month - 1, day + 1);
  let instant = wallMidnight - offsetAt(wallMidnight, formatter);
  instant = wallMidnight - offsetAt(instant, formatter);
  return instant - 1;
}
