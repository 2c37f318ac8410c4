import { describe, expect, it } from 'vitest';
import { fetchSpecs } from '../../../src/pipelines/fetch/fetch-specs.ts';
import { planFetches, type PlannedFetch, type RecentFetch } from '../../../src/pipelines/fetch/plan-fetches.ts';
import { upstreamRequest } from '../../../src/pipelines/fetch/upstream-request.ts';
import type { Api } from '../../../src/connectors/credentials.ts';
import { findPipeline, loadPipelines } from '../../../src/pipelines/pipeline-config.ts';
import { noHistory, planPipeline, type PlannedWindow } from '../../../src/pipelines/plan.ts';
import { US } from '../../helpers/home.ts';

// A first load of the profit pipeline for a US connection on 2026-11-20 at 10:30 in Los Angeles (PST, 18:30Z).
// T = 2026-11-20; T-29 = 2026-10-22 (first stage, 30 days); T-30 = 10-21; T-34 = 10-17; T-59 = 09-22;
// T-94 = 08-18 (the oldest day of a 95-day Ads retention); T-729 = 2024-11-21 (2026-11-20 minus 2 × 365 days).
const pipeline = findPipeline(loadPipelines(), 'profit');
const now = new Date('2026-11-20T18:30:00Z');
const connection = (apis: Api[]) => ({ id: US.id, timezone: 'America/Los_Angeles', apis: new Set(apis) });
const windows = planPipeline({
  pipeline,
  connections: [{ id: US.id, timezone: 'America/Los_Angeles' }],
  now,
  history: () => noHistory,
});
const firstStage = windows.filter((w) => w.stage === 'FIRST_STAGE');
const secondStage = windows.filter((w) => w.stage === 'SECOND_STAGE');

const plan = (phase: PlannedWindow[], recent: RecentFetch[] = [], apis: Api[] = ['sp-api', 'ads']) =>
  planFetches({ pipeline, windows: phase, connections: [connection(apis)], specs: fetchSpecs, now, recent });
const of = (fetches: PlannedFetch[], source: string) =>
  fetches
    .filter((f) => f.source === source)
    .map(({ from, to, unavailable }) => (unavailable ? { from, to, unavailable: true } : { from, to }));

describe('planFetches', () => {
  it('asks each source for the first stage of the tables that own it, once per report', () => {
    const fetches = plan(firstStage);
    // Orders belong to mkt_order_items_with_cogs (INITIAL 730): its first stage, 30 days, is one request.
    expect(of(fetches, 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL')).toEqual([
      { from: '2026-10-22', to: '2026-11-20' },
    ]);
    // Settlements are listed, not requested: one listing.
    expect(of(fetches, 'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2')).toEqual([{ from: null, to: null }]);
    // Sales and traffic by ASIN and day needs one-day reports: 30 of them, newest first.
    const traffic = of(fetches, 'GET_SALES_AND_TRAFFIC_REPORT');
    expect(traffic).toHaveLength(30);
    expect(traffic[0]).toEqual({ from: '2026-11-20', to: '2026-11-20' });
    expect(traffic.at(-1)).toEqual({ from: '2026-10-22', to: '2026-10-22' });
    // An ads type read only by the profit tables follows their (computed) windows: the same 30 days.
    expect(of(fetches, 'ads.spTargeting')).toEqual([{ from: '2026-10-22', to: '2026-11-20' }]);
    // No table reads sponsored display purchased products, and unit costs have no upstream operation.
    expect(of(fetches, 'ads.sdPurchasedProduct')).toEqual([]);
    expect(of(fetches, 'cogs')).toEqual([]);
  });

  it('fetches the second stage without what the first asked for, in requests of at most maxDaysPerRequest, and records history the Ads API no longer keeps', () => {
    const recent = plan(firstStage).map(({ connectionId, source, from, to }) => ({ connectionId, source, from, to }));
    const fetches = plan(secondStage, recent);
    // Orders: [T-729, T-30] = 2024-11-21..2026-10-21. The marketplace keeps 730 days, taken with a day of margin
    // (oldest T-728 = 2024-11-22): 2024-11-21 is recorded as unavailable, and 699 days are fetched in 23 requests of
    // 30 days and one of 9, newest first.
    const orders = of(fetches, 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL');
    expect(orders).toHaveLength(25);
    expect(orders[0]).toEqual({ from: '2026-09-22', to: '2026-10-21' });
    expect(orders.at(-2)).toEqual({ from: '2024-11-22', to: '2024-11-30' });
    expect(orders.at(-1)).toEqual({ from: '2024-11-21', to: '2024-11-21', unavailable: true });
    // Sales and traffic: its table's INITIAL 35 days, second stage T-34..T-30: five one-day requests.
    expect(of(fetches, 'GET_SALES_AND_TRAFFIC_REPORT').map((f) => f.from)).toEqual([
      '2026-10-21',
      '2026-10-20',
      '2026-10-19',
      '2026-10-18',
      '2026-10-17',
    ]);
    // Returns: mkt_returns reads order items, so its second stage spans [T-729, T]; the first stage's 30 days are
    // already asked for, and no history limit is documented for returns: 2024-11-21..2026-10-21, 700 days, 24 requests.
    expect(of(fetches, 'GET_FBA_FULFILLMENT_CUSTOMER_RETURNS_DATA')).toHaveLength(24);
    // spTargeting follows the profit tables' second stage [T-729, T] minus the first 30 days; the Ads API keeps
    // 95 days, with the day of margin T-93 = 2026-08-19: 2024-11-21..2026-08-18 is recorded as unavailable and
    // 08-19..10-21 (64 days) is fetched in requests of 31, 31 and 2 days.
    expect(of(fetches, 'ads.spTargeting')).toEqual([
      { from: '2026-09-21', to: '2026-10-21' },
      { from: '2026-08-21', to: '2026-09-20' },
      { from: '2026-08-19', to: '2026-08-20' },
      { from: '2024-11-21', to: '2026-08-18', unavailable: true },
    ]);
    // The settlement listing was made minutes ago: not again.
    expect(of(fetches, 'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2')).toEqual([]);
  });

  it('fetches only the APIs a connection holds credentials for', () => {
    const fetches = plan(firstStage, [], ['ads']);
    expect(new Set(fetches.map((f) => f.source.split('.')[0]))).toEqual(new Set(['ads']));
  });
});

describe('upstreamRequest', () => {
  it('sends a timestamped report from local midnight to the end of its last day, never into the future', () => {
    const tz = { marketplaceId: 'ATVPDKIKX0DER', timezone: 'America/Los_Angeles' };
    const orders = fetchSpecs.get('GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL')!;
    // 2026-10-22 is still daylight time in Los Angeles (-07:00); 11-20 is standard time (-08:00). The window ends
    // today, so its end is two minutes before now: 18:28Z = 10:28 PST.
    expect(
      upstreamRequest(
        orders,
        { connectionId: US.id, source: 'orders', stage: null, from: '2026-10-22', to: '2026-11-20' },
        tz,
        now.getTime(),
      ),
    ).toEqual({
      kind: 'report',
      body: {
        reportType: 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
        marketplaceIds: ['ATVPDKIKX0DER'],
        dataStartTime: '2026-10-22T00:00:00-07:00',
        dataEndTime: '2026-11-20T10:28:00-08:00',
      },
    });
    // A past window ends at 23:59:59 local on its last day.
    const past = upstreamRequest(
      orders,
      { connectionId: US.id, source: 'orders', stage: null, from: '2026-09-01', to: '2026-09-30' },
      tz,
      now.getTime(),
    );
    expect(past).toMatchObject({
      body: { dataStartTime: '2026-09-01T00:00:00-07:00', dataEndTime: '2026-09-30T23:59:59-07:00' },
    });
  });
});
