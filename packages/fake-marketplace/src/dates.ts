/** Calendar dates (YYYY-MM-DD) in the marketplaces' time zones, as the fake's sellers live them. */

/** `date` plus `days`. */
export const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** One formatter per zone: making one costs far more than formatting with it, and generators call this per record. */
const formats = new Map<string, Intl.DateTimeFormat>();

/** The local date of an instant in a time zone (`en-CA` writes YYYY-MM-DD). */
export function localDate(ms: number, timeZone: string): string {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formats.set(timeZone, format);
  }
  return format.format(ms);
}

/** The instant a local day starts in a time zone (its midnight, daylight saving included). */
export function localMidnight(date: string, timeZone: string): number {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  // The offset at UTC midnight, then once more at the guess: a daylight-saving change between them moves it.
  const guess = utcMidnight - offsetMs(utcMidnight, timeZone);
  return utcMidnight - offsetMs(guess, timeZone);
}

/** The zone's offset from UTC at an instant, in milliseconds, to the second. */
function offsetMs(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(ms);
  const part = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const asUtc = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return asUtc - Math.floor(ms / 1000) * 1000;
}
