import type { Model } from './load-models.ts';
import { quote } from '../db/sql.ts';

/** An inclusive range of dates, `YYYY-MM-DD`. */
export interface DateRange {
  from: string;
  to: string;
}

/** Every date: the range of a whole-table window. */
export const allDates: DateRange = { from: '1900-01-01', to: '9999-12-31' };

/**
 * The rows of a windowed model's table in the given date ranges of the given connections. Connections with the
 * same ranges share one condition, so that a build's one window stays `in (…) and between`.
 */
export function windowRows(model: Model, slices: { connectionId: string; ranges: DateRange[] }[]): string {
  const { date_column: date, connection_column: connection } = model.config.window!;
  const dates = (list: DateRange[]) =>
    `(${mergeRanges(list)
      .map((r) => `${date} between ${quote(r.from)}::date and ${quote(r.to)}::date`)
      .join(' or ')})`;
  const byRanges = new Map<string, string[]>();
  for (const slice of slices)
    byRanges.set(dates(slice.ranges), [...(byRanges.get(dates(slice.ranges)) ?? []), quote(slice.connectionId)]);
  return [...byRanges]
    .map(([condition, ids]) => `(${connection} in (${ids.join(', ')}) and ${condition})`)
    .join(' or ');
}

/** Sorted ranges with overlapping and adjacent ones joined. */
export function mergeRanges(ranges: DateRange[]): DateRange[] {
  const sorted = [...ranges].sort((a, b) => a.from.localeCompare(b.from));
  const merged: DateRange[] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    // (`last.to` may be 9999-12-31, whose next day has no four-digit year: compare with it first.)
    if (last && (range.from <= last.to || range.from <= nextDay(last.to)))
      last.to = range.to > last.to ? range.to : last.to;
    else merged.push({ ...range });
  }
  return merged;
}

const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
