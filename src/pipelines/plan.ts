import { mergeRanges, type DateRange } from '../models/date-ranges.ts';
import type { Pipeline, PipelineTable } from './pipeline-config.ts';

export type WindowKind =
  'INITIAL' | 'RECURRING_DAILY' | 'RECURRING_MONTHLY' | 'REFRESH' | 'CONTINUOUS' | 'LATE_DATA' | 'RETRY' | 'BACKFILL';
export type InitialStage = 'FIRST_STAGE' | 'SECOND_STAGE';

/**
 * One window a run fetches and rebuilds for a (connection, table); `from`/`to` null is the whole table (a snapshot).
 */
export interface PlannedWindow {
  connectionId: string;
  table: string;
  kind: WindowKind;
  stage: InitialStage | null;
  /** The connection's marketplace-local date the window was planned on. */
  localDate: string;
  from: string | null;
  to: string | null;
  /** A retry of a window whose data did not come: it asks the marketplace again. */
  refetch?: boolean;
}

/** What planning needs to know of a (connection, table) from its successful runs. */
export interface TableHistory {
  /** The first stage of its INITIAL load succeeded. */
  initialDone: boolean;
  /** Local date of the INITIAL load. */
  initialDate: string | null;
  /** Local date of the last RECURRING_DAILY window. */
  lastDaily: string | null;
  /** Local date of the last RECURRING_MONTHLY window. */
  lastMonthly: string | null;
  /** Clock of the last run that refreshed it on schedule. */
  lastRefresh: Date | null;
}

export const noHistory: TableHistory = {
  initialDone: false,
  initialDate: null,
  lastDaily: null,
  lastMonthly: null,
  lastRefresh: null,
};

export interface PlanConnection {
  id: string;
  timezone: string;
}

export interface PlanInput {
  pipeline: Pipeline;
  connections: PlanConnection[];
  now: Date;
  history: (connectionId: string, table: string) => TableHistory;
  /** `mktdata run --from --to`: these dates of every table, and every snapshot whole. */
  backfill?: DateRange;
  /** Dates that newly landed rows touch, per connection and table (`null`: every date). */
  touched?: Map<string, Map<string, DateRange[] | null>>;
  /** Windows of earlier runs that failed or never finished. */
  retries?: PlannedWindow[];
  /** Connections whose tables are refreshed now whether due or not ("run now"). */
  refresh?: ReadonlySet<string>;
}

/** The connection's local date and minutes after local midnight at `now`. */
export function localClock(now: Date, timezone: string): { date: string; minutes: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, minutes: Number(parts.hour) * 60 + Number(parts.minute) };
}

export const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The latest refresh time at or before `now`, as minutes since the connection's local epoch day 0 (comparable across
 * days); a table is due when it was last refreshed before it.
 */
function lastSlot(table: PipelineTable, now: Date, timezone: string): number {
  const { date, minutes } = localClock(now, timezone);
  const day = Date.parse(`${date}T00:00:00Z`) / 86_400_000;
  const today = table.refreshAt.filter((m) => m <= minutes);
  return today.length > 0 ? day * 1440 + today.at(-1)! : (day - 1) * 1440 + table.refreshAt.at(-1)!;
}

const isDue = (table: PipelineTable, history: TableHistory, now: Date, timezone: string) =>
  !history.lastRefresh || slotOf(history.lastRefresh, timezone) < lastSlot(table, now, timezone);

function slotOf(instant: Date, timezone: string): number {
  const { date, minutes } = localClock(instant, timezone);
  return (Date.parse(`${date}T00:00:00Z`) / 86_400_000) * 1440 + minutes;
}

/**
 * The windows a run must fetch and rebuild (docs/design/ARCHITECTURE.md "Windows, not cursors"; spec 000 fetchPeriods),
 * in each connection's local dates, with T its date today:
 * - INITIAL n, on a connection's first load: the first stage [T-f+1, T] (f = the pipeline's firstStageDays), then
 *   the second stage [T-n+1, T-f], the older rest ([T-n+1, T] for a table that reads other dated tables of the
 *   pipeline); nothing else is planned for the table in that run.
 * - RECURRING_DAILY n, at the first refresh of a day: [T-n+1, T]; at the day's later refresh times, REFRESH [T, T].
 * - RECURRING_MONTHLY n shifted m, at the first refresh of a month after the month of the INITIAL load:
 *   [T-m-n+1, T-m].
 * - CONTINUOUS, a rolling snapshot: a dated table rebuilds the union of its pipeline's other dated tables' windows
 *   (it is computed from them), or every date when it has none; an undated table is rebuilt whole at each refresh.
 * A table is refreshed when one of its refresh times has passed since its last refresh, or when a connection's refresh
 * is asked for now (`refresh`). Then come late data (dates
 * that newly landed rows touch, beyond the windows above), retries of failed windows, and a backfill range.
 */
export function planPipeline(input: PlanInput): PlannedWindow[] {
  const { pipeline, now } = input;
  const isContinuous = (table: PipelineTable) => table.fetchPeriods.some((p) => p.type === 'CONTINUOUS');
  const windows: PlannedWindow[] = [];
  for (const connection of input.connections) {
    const today = localClock(now, connection.timezone).date;
    const planned: PlannedWindow[] = [];
    const due = (table: PipelineTable, history: TableHistory) =>
      input.refresh?.has(connection.id) || isDue(table, history, now, connection.timezone);
    const add = (table: PipelineTable, kind: WindowKind, stage: InitialStage | null, range: DateRange | null) =>
      planned.push({
        connectionId: connection.id,
        table: table.name,
        kind,
        stage,
        localDate: today,
        from: range?.from ?? null,
        to: range?.to ?? null,
      });
    for (const table of pipeline.tables.filter((t) => !isContinuous(t))) {
      const history = input.history(connection.id, table.name);
      const initial = table.fetchPeriods.find((p) => p.type === 'INITIAL');
      if (initial && !history.initialDone) {
        if (!table.dated) add(table, 'INITIAL', 'FIRST_STAGE', null);
        else {
          const first = Math.min(initial.numberOfDays, pipeline.firstStageDays);
          add(table, 'INITIAL', 'FIRST_STAGE', { from: addDays(today, 1 - first), to: today });
          // A table computed from other dated tables repeats its recent days in the second stage, so that they
          // see the older rows they refer to (a return's order, an old order's settlement).
          const to = table.reads.length > 0 ? today : addDays(today, -first);
          if (initial.numberOfDays > first)
            add(table, 'INITIAL', 'SECOND_STAGE', { from: addDays(today, 1 - initial.numberOfDays), to });
        }
        continue;
      }
      if (!due(table, history)) continue;
      for (const period of table.fetchPeriods) {
        if (period.type === 'RECURRING_DAILY') {
          // The INITIAL load was the day's first refresh: it fetched more than the daily window.
          const kind = history.lastDaily === today || history.initialDate === today ? 'REFRESH' : 'RECURRING_DAILY';
          add(
            table,
            kind,
            null,
            table.dated
              ? { from: kind === 'REFRESH' ? today : addDays(today, 1 - period.numberOfDays), to: today }
              : null,
          );
        } else if (period.type === 'RECURRING_MONTHLY') {
          const month = today.slice(0, 7);
          if (history.lastMonthly?.slice(0, 7) !== month && history.initialDate?.slice(0, 7) !== month) {
            add(table, 'RECURRING_MONTHLY', null, {
              from: addDays(today, 1 - period.shiftDays - period.numberOfDays),
              to: addDays(today, -period.shiftDays),
            });
          }
        }
      }
    }
    // A dated CONTINUOUS table is computed from its pipeline's other dated tables: it rebuilds the union of their
    // windows, stage by stage. Without such tables, and when undated, it is rebuilt whole.
    const computedFrom = planned.filter((w) => w.from !== null);
    const computed = pipeline.tables.some((t) => t.dated && !isContinuous(t));
    for (const table of pipeline.tables.filter(isContinuous)) {
      const history = input.history(connection.id, table.name);
      if (table.dated && computed) {
        for (const stage of [null, 'FIRST_STAGE', 'SECOND_STAGE'] as const) {
          const ranges = mergeRanges(
            computedFrom.filter((w) => w.stage === stage).map((w) => ({ from: w.from!, to: w.to! })),
          );
          for (const range of ranges) add(table, 'CONTINUOUS', stage, range);
        }
      } else if (!history.initialDone) add(table, 'CONTINUOUS', 'FIRST_STAGE', null);
      else if (due(table, history)) add(table, 'CONTINUOUS', null, null);
    }
    windows.push(...planned);
  }
  return [...windows, ...extraWindows(input, windows)];
}

/** Late data beyond the planned windows, retries and the backfill range. */
function extraWindows(input: PlanInput, planned: PlannedWindow[]): PlannedWindow[] {
  const extra = lateDataWindows(input.pipeline, input.connections, input.now, input.touched, planned);
  for (const connection of input.connections) {
    const today = localClock(input.now, connection.timezone).date;
    for (const table of input.backfill ? input.pipeline.tables : []) {
      const range = table.dated ? { from: input.backfill!.from, to: input.backfill!.to } : { from: null, to: null };
      extra.push({
        connectionId: connection.id,
        table: table.name,
        stage: null,
        localDate: today,
        kind: 'BACKFILL',
        ...range,
      });
    }
  }
  const known = new Set(input.connections.map((c) => c.id));
  const tables = new Set(input.pipeline.tables.map((t) => t.name));
  for (const retry of input.retries ?? []) {
    if (known.has(retry.connectionId) && tables.has(retry.table))
      extra.push({
        ...retry,
        kind: 'RETRY',
        localDate: localClock(input.now, input.connections.find((c) => c.id === retry.connectionId)!.timezone).date,
      });
  }
  return extra;
}

/**
 * LATE_DATA windows: the dates newly landed rows touch beyond the windows already planned; a source whose dates are
 * not known (no `touchedDates`) rebuilds the table whole, in a first load too (its INITIAL window may hold fewer days
 * than the documents landed: a table is what its documents hold, whenever they came).
 */
export function lateDataWindows(
  pipeline: Pipeline,
  connections: PlanConnection[],
  now: Date,
  touched: PlanInput['touched'],
  planned: PlannedWindow[],
): PlannedWindow[] {
  const late: PlannedWindow[] = [];
  for (const connection of connections) {
    const today = localClock(now, connection.timezone).date;
    for (const table of pipeline.tables) {
      const base = {
        connectionId: connection.id,
        table: table.name,
        stage: null,
        localDate: today,
        kind: 'LATE_DATA' as const,
      };
      const mine = planned.filter((w) => w.connectionId === connection.id && w.table === table.name);
      const dates = touched?.get(connection.id)?.get(table.name);
      if (dates === undefined || mine.some((w) => w.from === null)) continue;
      if (dates === null || !table.dated) {
        if (table.dated || !mine.some((w) => w.stage === 'FIRST_STAGE')) late.push({ ...base, from: null, to: null });
      } else {
        // (Days after today hold no rows yet: a trailing window's reach stops at today.)
        const until = dates
          .filter((r) => r.from <= today)
          .map((r) => ({ from: r.from, to: r.to > today ? today : r.to }));
        for (const range of subtractRanges(
          until,
          mine.map((w) => ({ from: w.from!, to: w.to! })),
        ))
          late.push({ ...base, ...range });
      }
    }
  }
  return late;
}

/** The parts of `ranges` outside `covered`, merged. */
export function subtractRanges(ranges: DateRange[], covered: DateRange[]): DateRange[] {
  let rest = mergeRanges(ranges);
  for (const cut of mergeRanges(covered)) {
    rest = rest.flatMap((r) => {
      if (cut.to < r.from || cut.from > r.to) return [r];
      const parts: DateRange[] = [];
      if (cut.from > r.from) parts.push({ from: r.from, to: addDays(cut.from, -1) });
      if (cut.to < r.to) parts.push({ from: addDays(cut.to, 1), to: r.to });
      return parts;
    });
  }
  return rest;
}
