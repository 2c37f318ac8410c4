import { describe, expect, it } from 'vitest';
import { findPipeline, loadPipelines } from '../../src/pipelines/pipeline-config.ts';
import {
  localClock,
  noHistory,
  planPipeline,
  subtractRanges,
  type PlanConnection,
  type PlannedWindow,
  type TableHistory,
} from '../../src/pipelines/plan.ts';
import type { DateRange } from '../../src/models/date-ranges.ts';
import { DE, US } from '../helpers/home.ts';

// The planner, pure: a fake clock and an in-memory history folded from the windows it returns, as if every window
// succeeded. Europe/Berlin is CET (UTC+1) from 25 Oct 2026 to 28 Mar 2027, so 10:30 in Berlin is 09:30Z throughout.
// America/Los_Angeles is PST (UTC-8) from 1 Nov 2026.

const pipeline = findPipeline(loadPipelines(), 'profit');
const ORDERS = 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL';
const de: PlanConnection = { id: DE.id, timezone: 'Europe/Berlin' };
const us: PlanConnection = { id: US.id, timezone: 'America/Los_Angeles' };

const ITEMS = 'mkt_order_items_with_cogs'; // INITIAL 730, RECURRING_DAILY 28; 10am, 1pm, 4pm, 7pm
// INITIAL 35, RECURRING_DAILY 4, RECURRING_MONTHLY 30 shifted 4; 10am, 1pm, 4pm
const TRAFFIC = 'mkt_sales_and_traffic_with_cogs';
const PROFIT = 'mkt_profit_by_sku_and_date'; // CONTINUOUS; 10am, 1pm, 4pm

const scheduled = new Set(['INITIAL', 'RECURRING_DAILY', 'RECURRING_MONTHLY', 'REFRESH', 'CONTINUOUS']);
const later = <T extends string | Date>(a: T | null, b: T): T => (a === null || a < b ? b : a);

/** Folds successful windows into the history as readHistory (src/pipelines/run-pipeline.ts) derives it. */
function fold(history: Map<string, TableHistory>, windows: PlannedWindow[], clock: Date) {
  for (const w of windows) {
    const key = `${w.connectionId}/${w.table}`;
    const h = { ...(history.get(key) ?? noHistory) };
    // initial_date: min(local_date) of FIRST_STAGE windows; initialDone: there is one.
    if (w.stage === 'FIRST_STAGE') {
      h.initialDone = true;
      h.initialDate = h.initialDate === null || w.localDate < h.initialDate ? w.localDate : h.initialDate;
    }
    if (w.kind === 'RECURRING_DAILY') h.lastDaily = later(h.lastDaily, w.localDate);
    if (w.kind === 'RECURRING_MONTHLY') h.lastMonthly = later(h.lastMonthly, w.localDate);
    if (scheduled.has(w.kind)) h.lastRefresh = later(h.lastRefresh, clock);
    history.set(key, h);
  }
}

/** A warehouse in memory: each run plans at its clock and succeeds. */
function simulate(connections: PlanConnection[] = [de]) {
  const history = new Map<string, TableHistory>();
  return {
    history,
    plan: (
      iso: string,
      extra: { touched?: Map<string, Map<string, DateRange[] | null>>; retries?: PlannedWindow[] } = {},
    ) =>
      planPipeline({
        pipeline,
        connections,
        now: new Date(iso),
        history: (c, t) => history.get(`${c}/${t}`) ?? noHistory,
        ...extra,
      }),
    run(
      iso: string,
      extra: { touched?: Map<string, Map<string, DateRange[] | null>>; retries?: PlannedWindow[] } = {},
    ) {
      const windows = this.plan(iso, extra);
      fold(history, windows, new Date(iso));
      return windows;
    },
  };
}

/** A table's windows, as (kind, stage, from, to). */
const of = (windows: PlannedWindow[], table: string, connectionId = DE.id) =>
  windows
    .filter((w) => w.table === table && w.connectionId === connectionId)
    .map(({ kind, stage, from, to }) => ({ kind, stage, from, to }));
const win = (kind: string, stage: string | null, from: string | null, to: string | null) => ({ kind, stage, from, to });

/** First load on 2026-11-20 at 10:30 in Berlin (09:30Z). */
function firstLoad(connections?: PlanConnection[]) {
  const sim = simulate(connections);
  const windows = sim.run('2026-11-20T09:30:00Z');
  return { sim, windows };
}

/** The first load, then a run at 10:30 Berlin time on each of 2026-11-21..2026-11-30. */
function throughNovember() {
  const { sim } = firstLoad();
  const days: PlannedWindow[][] = [];
  for (let day = 21; day <= 30; day++) days.push(sim.run(`2026-11-${day}T09:30:00Z`));
  return { sim, days };
}

describe('planPipeline: the profit pipeline on a DE connection', () => {
  it('reads the fetch periods and refresh times of the three tables from the catalog', () => {
    const table = (name: string) => pipeline.tables.find((t) => t.name === name)!;
    expect(pipeline.firstStageDays).toBe(30);
    expect(table(ITEMS)).toMatchObject({ dated: true, refreshAt: [600, 780, 960, 1140] }); // 10am, 1pm, 4pm, 7pm
    expect(table(TRAFFIC)).toMatchObject({ dated: true, refreshAt: [600, 780, 960] });
    expect(table(TRAFFIC).fetchPeriods).toEqual([
      { type: 'INITIAL', numberOfDays: 35 },
      { type: 'RECURRING_DAILY', numberOfDays: 4 },
      { type: 'RECURRING_MONTHLY', numberOfDays: 30, shiftDays: 4 },
    ]);
    expect(table(PROFIT)).toMatchObject({
      dated: true,
      refreshAt: [600, 780, 960],
      fetchPeriods: [{ type: 'CONTINUOUS' }],
    });
  });

  it('first load on 2026-11-20 10:30: FIRST_STAGE of 30 days, SECOND_STAGE the older rest', () => {
    const { windows } = firstLoad();
    expect(new Set(windows.map((w) => w.localDate))).toEqual(new Set(['2026-11-20']));
    expect(of(windows, ITEMS)).toEqual([
      // 2026-11-20 - 29 days = 2026-10-22 (20 Nov - 19 = 1 Nov, - 10 = 22 Oct): 30 days ending today.
      win('INITIAL', 'FIRST_STAGE', '2026-10-22', '2026-11-20'),
      // 2026-11-20 - 730 days = 2024-11-20 (365 + 365: no 29 Feb between), so - 729 days = 2024-11-21;
      // 2026-11-20 - 30 days = 2026-10-21.
      win('INITIAL', 'SECOND_STAGE', '2024-11-21', '2026-10-21'),
    ]);
    expect(of(windows, TRAFFIC)).toEqual([
      // INITIAL 35: the first stage is min(35, 30) = 30 days, 2026-10-22..2026-11-20 as above.
      win('INITIAL', 'FIRST_STAGE', '2026-10-22', '2026-11-20'),
      // 2026-11-20 - 34 days = 2026-10-17 (22 Oct is - 29, 5 more days back); to 2026-11-20 - 30 = 2026-10-21.
      win('INITIAL', 'SECOND_STAGE', '2026-10-17', '2026-10-21'),
    ]);
    expect(of(windows, PROFIT)).toEqual([
      // Union of the first stages: every dated table's is 2026-10-22..2026-11-20.
      win('CONTINUOUS', 'FIRST_STAGE', '2026-10-22', '2026-11-20'),
      // Union of the second stages: orders 2024-11-21..2026-10-21; settlements and returns read the order items,
      // so their second stages repeat the recent days: 2024-11-21..2026-11-20 (INITIAL 730); they cover traffic's
      // 2026-10-17..2026-10-21 and ads' 2026-09-22..2026-11-20 (INITIAL 60: 2026-11-20 - 59 = 2026-09-22).
      win('CONTINUOUS', 'SECOND_STAGE', '2024-11-21', '2026-11-20'),
    ]);
    // A table that reads another dated table of the pipeline (settlements read the order items): the second
    // stage is [T-n+1, T], 2024-11-21..2026-11-20.
    expect(of(windows, 'mkt_settlements_with_cogs')).toEqual([
      win('INITIAL', 'FIRST_STAGE', '2026-10-22', '2026-11-20'),
      win('INITIAL', 'SECOND_STAGE', '2024-11-21', '2026-11-20'),
    ]);
    // Nothing but the INITIAL load for the non-continuous tables on a first load.
    expect(
      windows.filter((w) => w.table !== PROFIT && w.table !== 'mkt_profit_by_date').every((w) => w.kind === 'INITIAL'),
    ).toBe(true);
  });

  it('ten daily runs at 10:30 on 2026-11-21..30: RECURRING_DAILY windows, and no RECURRING_MONTHLY in the month of the INITIAL load', () => {
    const { days } = throughNovember();
    // [day, day - 27 (orders, 28 days), day - 3 (traffic, 4 days), day - 34 (profit: the union; settlements'
    // RECURRING_DAILY 35 is the widest of the pipeline, every window ends on the day)]
    const expected: [string, string, string, string][] = [
      // 21 Nov - 21 = 31 Oct; - 6 more = 25 Oct; - 13 more = 18 Oct
      ['2026-11-21', '2026-10-25', '2026-11-18', '2026-10-18'],
      ['2026-11-22', '2026-10-26', '2026-11-19', '2026-10-19'], // 22 Nov - 22 = 31 Oct; - 5 = 26 Oct; - 12 = 19 Oct
      ['2026-11-23', '2026-10-27', '2026-11-20', '2026-10-20'], // 23 Nov - 23 = 31 Oct; - 4 = 27 Oct; - 11 = 20 Oct
      ['2026-11-24', '2026-10-28', '2026-11-21', '2026-10-21'], // 24 Nov - 24 = 31 Oct; - 3 = 28 Oct; - 10 = 21 Oct
      ['2026-11-25', '2026-10-29', '2026-11-22', '2026-10-22'], // 25 Nov - 25 = 31 Oct; - 2 = 29 Oct; - 9 = 22 Oct
      ['2026-11-26', '2026-10-30', '2026-11-23', '2026-10-23'], // 26 Nov - 26 = 31 Oct; - 1 = 30 Oct; - 8 = 23 Oct
      ['2026-11-27', '2026-10-31', '2026-11-24', '2026-10-24'], // 27 Nov - 27 = 31 Oct; 31 Oct - 7 = 24 Oct
      // 28 Nov - 27 = 1 Nov; 28 Nov - 28 = 31 Oct, - 6 = 25 Oct
      ['2026-11-28', '2026-11-01', '2026-11-25', '2026-10-25'],
      // 29 Nov - 27 = 2 Nov; 29 Nov - 29 = 31 Oct, - 5 = 26 Oct
      ['2026-11-29', '2026-11-02', '2026-11-26', '2026-10-26'],
      // 30 Nov - 27 = 3 Nov; 30 Nov - 30 = 31 Oct, - 4 = 27 Oct
      ['2026-11-30', '2026-11-03', '2026-11-27', '2026-10-27'],
    ];
    expect(days).toHaveLength(10);
    days.forEach((windows, i) => {
      const [day, items, traffic, profit] = expected[i]!;
      expect(new Set(windows.map((w) => w.localDate)), day).toEqual(new Set([day]));
      expect(of(windows, ITEMS), day).toEqual([win('RECURRING_DAILY', null, items, day)]);
      // The month of the INITIAL load: no RECURRING_MONTHLY.
      expect(of(windows, TRAFFIC), day).toEqual([win('RECURRING_DAILY', null, traffic, day)]);
      expect(of(windows, PROFIT), day).toEqual([win('CONTINUOUS', null, profit, day)]);
    });
  });

  it('the month boundary run on 2026-12-01 10:30 adds RECURRING_MONTHLY 30 shifted 4, once a month', () => {
    const { sim } = throughNovember();
    const windows = sim.run('2026-12-01T09:30:00Z');
    // 1 Dec - 1 = 30 Nov, - 26 more = 4 Nov: 28 days.
    expect(of(windows, ITEMS)).toEqual([win('RECURRING_DAILY', null, '2026-11-04', '2026-12-01')]);
    expect(of(windows, TRAFFIC)).toEqual([
      // 1 Dec - 3 = 28 Nov.
      win('RECURRING_DAILY', null, '2026-11-28', '2026-12-01'),
      // to = 1 Dec - 4 = 27 Nov; from = 1 Dec - 4 - 30 + 1 = 1 Dec - 33 = 27 Nov - 29 = 29 Oct (27 Nov - 27 = 31 Oct, -
      // 2).
      // 29..31 Oct (3 days) + 1..27 Nov (27 days) = 30 days.
      win('RECURRING_MONTHLY', null, '2026-10-29', '2026-11-27'),
    ]);
    // Union: settlements' 1 Dec - 34 = 28 Oct (1 Dec - 1 = 30 Nov, - 30 = 31 Oct, - 3 = 28 Oct) covers traffic's
    // monthly window from 29 Oct.
    expect(of(windows, PROFIT)).toEqual([win('CONTINUOUS', null, '2026-10-28', '2026-12-01')]);

    // A later refresh the same day: REFRESH [T, T], and no second RECURRING_MONTHLY in December.
    const afternoon = sim.run('2026-12-01T12:05:00Z'); // 13:05 in Berlin
    expect(of(afternoon, ITEMS)).toEqual([win('REFRESH', null, '2026-12-01', '2026-12-01')]);
    expect(of(afternoon, TRAFFIC)).toEqual([win('REFRESH', null, '2026-12-01', '2026-12-01')]);
    expect(of(afternoon, PROFIT)).toEqual([win('CONTINUOUS', null, '2026-12-01', '2026-12-01')]);
    // The next day: daily only.
    expect(of(sim.run('2026-12-02T09:30:00Z'), TRAFFIC)).toEqual([
      win('RECURRING_DAILY', null, '2026-11-29', '2026-12-02'),
    ]); // 2 Dec - 3 = 29 Nov

    // And again at the first refresh of January, across the year boundary.
    const january = sim.run('2027-01-01T09:30:00Z');
    expect(of(january, TRAFFIC)).toEqual([
      // 1 Jan 2027 - 3 = 29 Dec 2026.
      win('RECURRING_DAILY', null, '2026-12-29', '2027-01-01'),
      // to = 1 Jan - 4 = 28 Dec; from = 28 Dec - 29 = 29 Nov (28 Dec - 28 = 30 Nov, - 1). 29..30 Nov + 1..28 Dec = 30
      // days.
      win('RECURRING_MONTHLY', null, '2026-11-29', '2026-12-28'),
    ]);
    // 1 Jan - 27 = 5 Dec (1 Jan - 1 = 31 Dec, - 26 = 5 Dec).
    expect(of(january, ITEMS)).toEqual([win('RECURRING_DAILY', null, '2026-12-05', '2027-01-01')]);
    // 1 Jan - 34 = 28 Nov (31 Dec - 33 = 28 Nov), before traffic's monthly 29 Nov.
    expect(of(january, PROFIT)).toEqual([win('CONTINUOUS', null, '2026-11-28', '2027-01-01')]);
  });

  it('a second run in the same refresh slot plans nothing; the 1pm slot plans REFRESH [T, T]', () => {
    const { sim } = firstLoad();
    expect(sim.run('2026-11-21T09:30:00Z').length).toBeGreaterThan(0); // 10:30, the day's first refresh
    // 10:45: the last refresh time passed (10am) is before the 10:30 run: nothing is due, in any table.
    expect(sim.run('2026-11-21T09:45:00Z')).toEqual([]);
    // 12:59: still the 10am slot.
    expect(sim.run('2026-11-21T11:59:00Z')).toEqual([]);
    // 13:05: the 1pm slot. The day already had its RECURRING_DAILY: REFRESH of today only.
    const afternoon = sim.run('2026-11-21T12:05:00Z');
    expect(of(afternoon, ITEMS)).toEqual([win('REFRESH', null, '2026-11-21', '2026-11-21')]);
    expect(of(afternoon, TRAFFIC)).toEqual([win('REFRESH', null, '2026-11-21', '2026-11-21')]);
    // The union of REFRESH windows.
    expect(of(afternoon, PROFIT)).toEqual([win('CONTINUOUS', null, '2026-11-21', '2026-11-21')]);
    expect(sim.run('2026-11-21T12:30:00Z')).toEqual([]); // 13:30, same slot
  });

  it('the day of the INITIAL load: the load was the day’s first refresh, the 1pm slot is a REFRESH [T, T]', () => {
    const { sim } = firstLoad();
    expect(sim.run('2026-11-20T09:45:00Z')).toEqual([]); // 10:45, same slot as the load
    const afternoon = sim.run('2026-11-20T12:05:00Z'); // 13:05
    expect(of(afternoon, ITEMS)).toEqual([win('REFRESH', null, '2026-11-20', '2026-11-20')]);
    expect(of(afternoon, TRAFFIC)).toEqual([win('REFRESH', null, '2026-11-20', '2026-11-20')]);
    expect(of(afternoon, PROFIT)).toEqual([win('CONTINUOUS', null, '2026-11-20', '2026-11-20')]);
    // The next day's first refresh is a RECURRING_DAILY again: 21 Nov - 27 = 25 Oct.
    expect(of(sim.run('2026-11-21T09:30:00Z'), ITEMS)).toEqual([
      win('RECURRING_DAILY', null, '2026-10-25', '2026-11-21'),
    ]);
  });

  it('before 10am, the due slot is the previous day’s last one: nothing when 7pm ran, the day’s RECURRING_DAILY comes at 10am', () => {
    const { sim } = firstLoad();
    sim.run('2026-11-21T09:30:00Z'); // 10:30 RECURRING_DAILY
    sim.run('2026-11-21T12:05:00Z'); // 13:05 REFRESH
    const evening = sim.run('2026-11-21T18:05:00Z'); // 19:05: orders' 7pm slot; traffic's 4pm slot passed since 13:05
    expect(of(evening, ITEMS)).toEqual([win('REFRESH', null, '2026-11-21', '2026-11-21')]);
    expect(of(evening, TRAFFIC)).toEqual([win('REFRESH', null, '2026-11-21', '2026-11-21')]);
    // 08:00 on 22 Nov: the last refresh time passed is 7pm on 21 Nov, refreshed at 19:05: nothing is due.
    expect(sim.run('2026-11-22T07:00:00Z')).toEqual([]);
    expect(sim.run('2026-11-22T08:59:00Z')).toEqual([]); // 09:59
    // 10:30 on 22 Nov: the first refresh of the day. 22 Nov - 27 = 26 Oct; 22 Nov - 3 = 19 Nov.
    const morning = sim.run('2026-11-22T09:30:00Z');
    expect(of(morning, ITEMS)).toEqual([win('RECURRING_DAILY', null, '2026-10-26', '2026-11-22')]);
    expect(of(morning, TRAFFIC)).toEqual([win('RECURRING_DAILY', null, '2026-11-19', '2026-11-22')]);
  });

  it('before 10am with the previous evening missed: the catch-up run is the new local day’s RECURRING_DAILY', () => {
    const { sim } = firstLoad();
    sim.run('2026-11-21T09:30:00Z'); // 10:30
    sim.run('2026-11-21T12:05:00Z'); // 13:05; no run at 4pm or 7pm
    // 08:00 on 22 Nov: 7pm (orders) and 4pm (traffic) of 21 Nov passed since 13:05, so both are due; the local
    // date is 22 Nov, which has no RECURRING_DAILY yet: the window ends on 22 Nov (22 Nov - 27 = 26 Oct).
    const early = sim.run('2026-11-22T07:00:00Z');
    expect(new Set(early.map((w) => w.localDate))).toEqual(new Set(['2026-11-22']));
    expect(of(early, ITEMS)).toEqual([win('RECURRING_DAILY', null, '2026-10-26', '2026-11-22')]);
    // 10:30: the day has had its RECURRING_DAILY.
    expect(of(sim.run('2026-11-22T09:30:00Z'), ITEMS)).toEqual([win('REFRESH', null, '2026-11-22', '2026-11-22')]);
  });

  it('plans each connection in its marketplace’s local date: 2026-11-21T03:00Z is 20 Nov in Los Angeles, 21 Nov in Berlin', () => {
    const now = new Date('2026-11-21T03:00:00Z');
    // 03:00 - 8 h = 19:00 the day before
    expect(localClock(now, 'America/Los_Angeles')).toEqual({ date: '2026-11-20', minutes: 19 * 60 });
    expect(localClock(now, 'Europe/Berlin')).toEqual({ date: '2026-11-21', minutes: 4 * 60 }); // 03:00 + 1 h
    const sim = simulate([us, de]);
    const windows = sim.run(now.toISOString());
    expect(new Set(windows.filter((w) => w.connectionId === US.id).map((w) => w.localDate))).toEqual(
      new Set(['2026-11-20']),
    );
    expect(new Set(windows.filter((w) => w.connectionId === DE.id).map((w) => w.localDate))).toEqual(
      new Set(['2026-11-21']),
    );
    expect(of(windows, ITEMS, US.id)).toEqual([
      win('INITIAL', 'FIRST_STAGE', '2026-10-22', '2026-11-20'), // 20 Nov - 29 = 22 Oct
      // 20 Nov 2026 - 729 = 21 Nov 2024; 20 Nov - 30 = 21 Oct
      win('INITIAL', 'SECOND_STAGE', '2024-11-21', '2026-10-21'),
    ]);
    expect(of(windows, ITEMS, DE.id)).toEqual([
      win('INITIAL', 'FIRST_STAGE', '2026-10-23', '2026-11-21'), // 21 Nov - 29 = 23 Oct
      // 21 Nov 2026 - 729 = 22 Nov 2024; 21 Nov - 30 = 22 Oct
      win('INITIAL', 'SECOND_STAGE', '2024-11-22', '2026-10-22'),
    ]);
    // 09:30Z: 10:30 in Berlin (its 10am slot), 01:30 in Los Angeles (still the 7pm slot of 20 Nov, refreshed by
    // the load at 19:00): only DE is due.
    const next = sim.run('2026-11-21T09:30:00Z');
    expect(next.filter((w) => w.connectionId === US.id)).toEqual([]);
    // the INITIAL load’s day
    expect(of(next, ITEMS, DE.id)).toEqual([win('REFRESH', null, '2026-11-21', '2026-11-21')]);
    // 18:30Z: 10:30 in Los Angeles on 21 Nov: US's first RECURRING_DAILY, 21 Nov - 27 = 25 Oct.
    expect(of(sim.run('2026-11-21T18:30:00Z'), ITEMS, US.id)).toEqual([
      win('RECURRING_DAILY', null, '2026-10-25', '2026-11-21'),
    ]);
  });
});

describe('planPipeline: late data and retries', () => {
  const ordersTables = pipeline.tables.filter((t) => t.sources.includes(ORDERS)).map((t) => t.name);
  /** Dates per table, as run-pipeline's touchedDates gives them: every table reading the orders source. */
  const touchedByOrders = (ranges: DateRange[] | null) =>
    new Map([[DE.id, new Map(ordersTables.map((t) => [t, ranges]))]]);

  it('tables reading the orders source', () => {
    expect(ordersTables).toEqual([
      'mkt_order_items_with_cogs',
      'mkt_settlements_with_cogs',
      'mkt_sales_and_traffic_with_cogs',
      'mkt_ads_performance_by_asin_and_date',
      'mkt_profit_by_sku_and_date',
      'mkt_profit_by_date',
    ]);
  });

  it('an order 40 days back: one LATE_DATA window for that date in each table that reads orders', () => {
    const { sim } = firstLoad();
    // 21 Nov - 40 = 12 Oct (21 Nov - 21 = 31 Oct, - 19 = 12 Oct): before every daily window of 21 Nov (the widest,
    // settlements' 35 days, starts 21 Nov - 34 = 18 Oct).
    const windows = sim.run('2026-11-21T09:30:00Z', {
      touched: touchedByOrders([{ from: '2026-10-12', to: '2026-10-12' }]),
    });
    const late = windows.filter((w) => w.kind === 'LATE_DATA');
    expect(late).toEqual(
      ordersTables.map((table) => ({
        connectionId: DE.id,
        table,
        kind: 'LATE_DATA',
        stage: null,
        localDate: '2026-11-21',
        from: '2026-10-12',
        to: '2026-10-12',
      })),
    );
    expect(late.some((w) => w.table === 'mkt_returns')).toBe(false);
    // The scheduled windows are planned as without late data.
    expect(of(windows, ITEMS).filter((w) => w.kind !== 'LATE_DATA')).toEqual([
      win('RECURRING_DAILY', null, '2026-10-25', '2026-11-21'),
    ]);
  });

  it('late data inside the planned windows adds nothing; a range straddling a window adds only the part outside', () => {
    const { sim } = firstLoad();
    // 20 Nov is inside every daily window of 21 Nov.
    expect(
      sim
        .plan('2026-11-21T09:30:00Z', { touched: touchedByOrders([{ from: '2026-11-20', to: '2026-11-20' }]) })
        .filter((w) => w.kind === 'LATE_DATA'),
    ).toEqual([]);
    // 10..20 Oct: orders' window starts 25 Oct, settlements' 18 Oct, traffic's 18 Nov, ads' 8 Nov (21 Nov - 13),
    // profit's 18 Oct.
    const late = sim
      .plan('2026-11-21T09:30:00Z', { touched: touchedByOrders([{ from: '2026-10-10', to: '2026-10-20' }]) })
      .filter((w) => w.kind === 'LATE_DATA');
    expect(late.map(({ table, from, to }) => ({ table, from, to }))).toEqual([
      { table: 'mkt_order_items_with_cogs', from: '2026-10-10', to: '2026-10-20' },
      { table: 'mkt_settlements_with_cogs', from: '2026-10-10', to: '2026-10-17' }, // up to 18 Oct - 1
      { table: 'mkt_sales_and_traffic_with_cogs', from: '2026-10-10', to: '2026-10-20' },
      { table: 'mkt_ads_performance_by_asin_and_date', from: '2026-10-10', to: '2026-10-20' },
      { table: 'mkt_profit_by_sku_and_date', from: '2026-10-10', to: '2026-10-17' },
      { table: 'mkt_profit_by_date', from: '2026-10-10', to: '2026-10-17' },
    ]);
  });

  it('late data in a run where nothing is due is planned alone', () => {
    const { sim } = firstLoad();
    sim.run('2026-11-21T09:30:00Z');
    const windows = sim.run('2026-11-21T09:45:00Z', {
      touched: touchedByOrders([{ from: '2026-11-20', to: '2026-11-20' }]),
    });
    expect(windows.every((w) => w.kind === 'LATE_DATA' && w.from === '2026-11-20' && w.to === '2026-11-20')).toBe(true);
    expect(windows.map((w) => w.table)).toEqual(ordersTables);
  });

  it('a source without touchedDates (null): LATE_DATA of every date', () => {
    const { sim } = firstLoad();
    const late = sim
      .plan('2026-11-21T09:30:00Z', { touched: new Map([[DE.id, new Map([[ITEMS, null]])]]) })
      .filter((w) => w.kind === 'LATE_DATA');
    expect(late.map(({ table, from, to }) => ({ table, from, to }))).toEqual([{ table: ITEMS, from: null, to: null }]);
  });

  it('retries earlier failed windows as RETRY, in the current local date, for known connections and tables only', () => {
    const { sim } = firstLoad();
    const failed: PlannedWindow = {
      connectionId: DE.id,
      table: ITEMS,
      kind: 'INITIAL',
      stage: 'SECOND_STAGE',
      localDate: '2026-11-20',
      from: '2024-11-21',
      to: '2026-10-21',
    };
    const unknown: PlannedWindow = { ...failed, connectionId: 'gone' };
    const windows = sim.plan('2026-11-20T09:45:00Z', { retries: [failed, unknown] });
    expect(windows).toEqual([{ ...failed, kind: 'RETRY', localDate: '2026-11-20' }]);
  });
});

describe('subtractRanges', () => {
  const r = (from: string, to: string) => ({ from, to });

  it('cuts a hole in a range', () => {
    expect(subtractRanges([r('2026-10-01', '2026-10-31')], [r('2026-10-10', '2026-10-12')])).toEqual([
      r('2026-10-01', '2026-10-09'),
      r('2026-10-13', '2026-10-31'),
    ]);
  });

  it('keeps ranges outside the cuts and drops covered ones', () => {
    expect(subtractRanges([r('2026-10-01', '2026-10-05')], [r('2026-10-06', '2026-10-31')])).toEqual([
      r('2026-10-01', '2026-10-05'),
    ]);
    expect(subtractRanges([r('2026-10-06', '2026-10-08')], [r('2026-10-01', '2026-10-31')])).toEqual([]);
    expect(subtractRanges([r('2026-10-06', '2026-10-08')], [r('2026-10-06', '2026-10-08')])).toEqual([]);
    expect(subtractRanges([r('2026-10-06', '2026-10-08')], [])).toEqual([r('2026-10-06', '2026-10-08')]);
  });

  it('merges its inputs first and trims at both ends', () => {
    // 1..5 and 6..10 Oct are adjacent: one range 1..10, minus 3 Oct and minus 8..20 Oct.
    expect(
      subtractRanges(
        [r('2026-10-06', '2026-10-10'), r('2026-10-01', '2026-10-05')],
        [r('2026-10-08', '2026-10-20'), r('2026-10-03', '2026-10-03')],
      ),
    ).toEqual([r('2026-10-01', '2026-10-02'), r('2026-10-04', '2026-10-07')]);
  });

  it('counts days across month and year ends', () => {
    // 25 Nov..5 Dec minus 28 Nov..1 Dec: 25..27 Nov and 2..5 Dec.
    expect(subtractRanges([r('2026-11-25', '2026-12-05')], [r('2026-11-28', '2026-12-01')])).toEqual([
      r('2026-11-25', '2026-11-27'),
      r('2026-12-02', '2026-12-05'),
    ]);
    // 30 Dec 2026..2 Jan 2027 minus 31 Dec..1 Jan.
    expect(subtractRanges([r('2026-12-30', '2027-01-02')], [r('2026-12-31', '2027-01-01')])).toEqual([
      r('2026-12-30', '2026-12-30'),
      r('2027-01-02', '2027-01-02'),
    ]);
    // 2028 is a leap year: 28 Feb..1 Mar minus 1 Mar leaves 28..29 Feb.
    expect(subtractRanges([r('2028-02-28', '2028-03-01')], [r('2028-03-01', '2028-03-01')])).toEqual([
      r('2028-02-28', '2028-02-29'),
    ]);
  });
});
