/** Calendar and time-zone arithmetic on marketplace-local dates (YYYY-MM-DD) and instants (epoch ms). */

/** `date` plus `days`. */
export const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The local date of an instant in a time zone. */
export function localDate(ms: number, timezone: string): string {
  return formatter(
    dateFormats,
    timezone,
    (timeZone) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }),
  ).format(ms);
}

/**
 * Formatters per time zone: making one costs far more than formatting with it, and fetches and generators call these
 * per record.
 */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const partFormats = new Map<string, Intl.DateTimeFormat>();
function formatter(
  cache: Map<string, Intl.DateTimeFormat>,
  timezone: string,
  make: (timezone: string) => Intl.DateTimeFormat,
): Intl.DateTimeFormat {
  let made = cache.get(timezone);
  if (!made) cache.set(timezone, (made = make(timezone)));
  return made;
}

/** The zone's offset from UTC at an instant, in milliseconds (Los Angeles in summer: -7 h). */
export function offsetMs(ms: number, timezone: string): number {
  const parts = Object.fromEntries(
    formatter(
      partFormats,
      timezone,
      (timeZone) =>
        new Intl.DateTimeFormat('en-US', {
          timeZone,
          hourCycle: 'h23',
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          second: '2-digit',
        }),
    )
      .formatToParts(ms)
      .map((p) => [p.type, p.value]),
  );
  const asUtc = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The instant a local day starts in a time zone (its midnight, daylight saving included). */
export function localMidnight(date: string, timezone: string): number {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  // The offset at that moment, then corrected once more across a daylight-saving change.
  const guess = utcMidnight - offsetMs(utcMidnight, timezone);
  return utcMidnight - offsetMs(guess, timezone);
}

/** An instant as ISO 8601 in the zone's local time with its offset, to the second: `2026-10-01T00:00:00-07:00`. */
export function isoWithOffset(ms: number, timezone: string): string {
  const seconds = Math.floor(ms / 1000) * 1000;
  const offset = offsetMs(seconds, timezone);
  const local = new Date(seconds + offset).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  const minutes = Math.abs(offset) / 60_000;
  return `${local}${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
