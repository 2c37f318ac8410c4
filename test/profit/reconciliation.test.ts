// The build's reconciliation checks:
//   (a) staging.stg_mkt__settlements "every settlement's amounts add up to its total-amount" (error): a damaged
//       settlement fails the build there, before any profit is computed from it (stg_mkt__settlements.yml);
//   (b) marts.mkt_settlements_with_cogs: descriptions that fall to the map's catch-all line `*,*,*,other_fee` (warn);
//   (c) marts.mkt_profit_by_date "account profit minus the sum of SKU profit equals the account-only items".
// Two temporary homes, each built once: one consistent (b, c), one with a damaged settlement (a).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { runModels, type ModelResult } from '../../src/models/run-models.ts';
import { makeHome, rows, US } from '../helpers/home.ts';
import {
  buildAll,
  dayProfit,
  landCogs,
  landOk,
  landOrders,
  orderLine,
  skuProfit,
  writeJson,
  writeSettlement,
  type SettlementLine,
} from '../helpers/profit.ts';

const SETTLEMENTS = 'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2';
const result = (results: ModelResult[], model: string) => results.find((r) => r.model === model);

// US connection (America/Los_Angeles, PDT = UTC-7 from 2026-03-08; USD; prices exclude tax).
// Consistent home:
//   unit costs: SKU-A B000000001 4.00 + 0.50; SKU-B B000000002 3.00 + 0.00 (from 2026-01-01).
//   orders on 2026-03-10 (18:00Z and 19:00Z = 11:00 and 12:00 PDT): G-1 SKU-A 1 unit 10.00; G-2 SKU-B 2 units 15.00.
//   settlement 4001 (USD, adds up):
//     Order G-1 SKU-A posted 2026-03-12 17:00 UTC, dated on the order date 03-10: Principal +10.00, Commission -1.50,
//       FBAPerUnitFulfillmentFee -3.00.
//     other-transaction Storage Fee -7.25 without SKU, posted 2026-03-10 20:00 UTC = 13:00 PDT on 03-10.
//     other-transaction other-transaction FBAUnknownWidgetFee -1.00 without SKU, posted 2026-03-11 20:00 UTC (03-11):
//       no line of the map but the catch-all matches it.
//   Sponsored TV (ads.stCampaigns): 2026-03-10, campaign TV-1, cost 12.34; allocated to no SKU.
describe('reconciliation checks of a consistent build', () => {
  let wh: Warehouse;
  let results: ModelResult[];

  beforeAll(async () => {
    const made = await makeHome();
    wh = made.wh;
    const dir = made.dir;
    await landCogs(wh, dir, US, [
      'B000000001,SKU-A,USD,2026-01-01,4.00,0.50,S',
      'B000000002,SKU-B,USD,2026-01-01,3.00,0.00,S',
    ]);
    await landOrders(wh, dir, US, [
      orderLine({
        'amazon-order-id': 'G-1',
        'purchase-date': '2026-03-10T18:00:00+00:00',
        'last-updated-date': '2026-03-10T18:00:00+00:00',
      }),
      orderLine({
        'amazon-order-id': 'G-2',
        'purchase-date': '2026-03-10T19:00:00+00:00',
        'last-updated-date': '2026-03-10T19:00:00+00:00',
        sku: 'SKU-B',
        asin: 'B000000002',
        quantity: '2',
        'item-price': '15.00',
      }),
    ]);
    const g1: SettlementLine = {
      'transaction-type': 'Order',
      'order-id': 'G-1',
      'posted-date-time': '2026-03-12 17:00:00 UTC',
      'order-item-code': '12345678901234',
      sku: 'SKU-A',
      'quantity-purchased': '1',
    };
    await landOk(
      wh,
      SETTLEMENTS,
      US,
      writeSettlement(dir, 'settlement-4001.tsv', { id: '4001', currency: 'USD' }, [
        { ...g1, 'amount-type': 'ItemPrice', 'amount-description': 'Principal', amount: '10.00' },
        { ...g1, 'amount-type': 'ItemFees', 'amount-description': 'Commission', amount: '-1.50' },
        { ...g1, 'amount-type': 'ItemFees', 'amount-description': 'FBAPerUnitFulfillmentFee', amount: '-3.00' },
        {
          'transaction-type': 'other-transaction',
          'posted-date-time': '2026-03-10 20:00:00 UTC',
          'amount-type': 'other-transaction',
          'amount-description': 'Storage Fee',
          amount: '-7.25',
        },
        {
          'transaction-type': 'other-transaction',
          'posted-date-time': '2026-03-11 20:00:00 UTC',
          'amount-type': 'other-transaction',
          'amount-description': 'FBAUnknownWidgetFee',
          amount: '-1.00',
        },
      ]),
    );
    await landOk(
      wh,
      'ads.stCampaigns',
      US,
      writeJson(dir, 'st.json', [{ date: '2026-03-10', campaignId: 'TV-1', campaignName: 'TV', cost: 12.34 }]),
    );
    results = await buildAll(wh);
  });

  afterAll(async () => wh?.close());

  it('warns about a description only the catch-all line matches and names it', async () => {
    const settlements = result(results, 'marts.mkt_settlements_with_cogs');
    // One event (the FBAUnknownWidgetFee line) fell to the catch-all: one bad row, warn severity, the build goes on.
    expect(settlements).toMatchObject({
      status: 'success',
      findings: [
        {
          name: 'settlement descriptions that fell to the catch-all category (other_fee) of the amount map',
          severity: 'warn',
          badRows: 1,
        },
      ],
    });
    const named = await rows(
      wh,
      `select date, uncategorized_descriptions, other_fee_amount from marts.mkt_settlements_with_cogs
      where uncategorized_descriptions is not null`,
    );
    expect(named).toHaveLength(1);
    // Posted 20:00 UTC = 13:00 PDT on 03-11; counted as other_fee with its report sign: -1.00.
    expect(named[0]).toMatchObject({ date: '2026-03-11', other_fee_amount: '-1.0000' });
    expect(String(named[0]!.uncategorized_descriptions)).toContain('FBAUnknownWidgetFee');
    // Known descriptions are not named: the Storage Fee event has none.
    expect(
      await rows(
        wh,
        `select uncategorized_descriptions from marts.mkt_settlements_with_cogs where fba_fee_amount = -7.25`,
      ),
    ).toEqual([{ uncategorized_descriptions: null }]);
  });

  it('computes SKU and account profit of the day by hand', async () => {
    const sku = await skuProfit(wh, US.id, ['total_sales', 'total_fees', 'cogs_total', 'ad_spend', 'profit']);
    expect(sku).toEqual([
      // SKU-A: sales 10.00; fees -(-1.50 - 3.00) = 4.50 (order-dated to 03-10); cogs 4.50; profit 10.00 - 4.50 - 4.50 =
      // 1.00.
      {
        date: '2026-03-10',
        child_asin: 'B000000001',
        sku: 'SKU-A',
        total_sales: '10.0000',
        total_fees: '4.5000',
        cogs_total: '4.5000',
        ad_spend: '0.0000',
        profit: '1.0000',
      },
      // SKU-B: sales 15.00; cogs 2 × 3.00 = 6.00; profit 9.00. The TV spend goes to no SKU.
      {
        date: '2026-03-10',
        child_asin: 'B000000002',
        sku: 'SKU-B',
        total_sales: '15.0000',
        total_fees: '0.0000',
        cogs_total: '6.0000',
        ad_spend: '0.0000',
        profit: '9.0000',
      },
    ]);
    const day = await dayProfit(wh, US.id, [
      'total_sales',
      'total_fees',
      'cogs_total',
      'ad_spend',
      'sponsored_tv_ad_spend',
      'profit',
    ]);
    expect(day).toEqual([
      // 03-10: sales 10.00 + 15.00 = 25.00; fees 4.50 + storage 7.25 = 11.75; cogs 4.50 + 6.00 = 10.50; ad_spend = TV
      // 12.34;
      //   profit = 25.00 - 11.75 - 10.50 - 12.34 = -9.59.
      {
        date: '2026-03-10',
        currency: 'USD',
        total_sales: '25.0000',
        total_fees: '11.7500',
        cogs_total: '10.5000',
        ad_spend: '12.3400',
        sponsored_tv_ad_spend: '12.3400',
        profit: '-9.5900',
      },
      // 03-11: the uncategorized fee as other_fee: total_fees 1.00, profit -1.00.
      {
        date: '2026-03-11',
        currency: 'USD',
        total_sales: '0.0000',
        total_fees: '1.0000',
        cogs_total: '0.0000',
        ad_spend: '0.0000',
        sponsored_tv_ad_spend: '0.0000',
        profit: '-1.0000',
      },
    ]);
  });

  it('leaves account profit minus the sum of SKU profit equal to -(storage fee) - (TV spend), with no finding', async () => {
    const [difference] = await rows(
      wh,
      `select
        (select profit from marts.mkt_profit_by_date where seller_or_vendor_id = $c and date = '2026-03-10')
        - (select sum(profit) from marts.mkt_profit_by_sku_and_date where seller_or_vendor_id = $c and date = '2026-03-10') as difference`,
      { c: US.id },
    );
    // -9.59 - (1.00 + 9.00) = -19.59 = -(storage fee 7.25) - (TV spend 12.34).
    expect(difference).toEqual({ difference: '-19.5900' });
    const byDate = result(results, 'marts.mkt_profit_by_date');
    expect(byDate?.status).toBe('success');
    expect(byDate?.findings.filter((f) => f.name.startsWith('account profit minus the sum of SKU profit'))).toEqual([]);
  });
});

// Damaged home: settlement 5001 whose lines (+10.00 - 1.50 = 8.50) do not add up to its summary total-amount 9.50 (set
// in the raw table), beside settlement 5002 that adds up (+10.00 - 1.50 = 8.50, total computed from the lines).
describe('reconciliation check of a damaged settlement', () => {
  let wh: Warehouse;
  let results: ModelResult[];

  beforeAll(async () => {
    const made = await makeHome();
    wh = made.wh;
    const dir = made.dir;
    await landOrders(wh, dir, US, [orderLine({ 'amazon-order-id': 'H-1' }), orderLine({ 'amazon-order-id': 'H-2' })]);
    const lines = (order: string): SettlementLine[] => {
      const base: SettlementLine = {
        'transaction-type': 'Order',
        'order-id': order,
        'posted-date-time': '2026-03-12 17:00:00 UTC',
        sku: 'SKU-A',
        'quantity-purchased': '1',
      };
      return [
        { ...base, 'amount-type': 'ItemPrice', 'amount-description': 'Principal', amount: '10.00' },
        { ...base, 'amount-type': 'ItemFees', 'amount-description': 'Commission', amount: '-1.50' },
      ];
    };
    await landOk(
      wh,
      SETTLEMENTS,
      US,
      writeSettlement(dir, 'settlement-5001.tsv', { id: '5001', currency: 'USD' }, lines('H-1')),
    );
    await landOk(
      wh,
      SETTLEMENTS,
      US,
      writeSettlement(dir, 'settlement-5002.tsv', { id: '5002', currency: 'USD' }, lines('H-2')),
    );
    // Landing refuses a settlement that does not add up (damaged-files.test.ts); one landed by an earlier version
    // of mktdata, or changed in the warehouse, is still caught by the build.
    await wh.sql.run(
      `update raw.get_v2_settlement_report_data_flat_file_v2 set total_amount = 9.50 where settlement_id = '5001' and total_amount is not null`,
    );
    results = await runModels(wh);
  });

  afterAll(async () => wh?.close());

  it('fails staging.stg_mkt__settlements with an error finding for the one settlement that does not add up', () => {
    expect(result(results, 'staging.stg_mkt__settlements')).toMatchObject({
      status: 'error',
      findings: [{ name: "every settlement's amounts add up to its total-amount", severity: 'error', badRows: 1 }],
    });
  });

  it('computes no profit from it: the profit models are skipped', () => {
    expect(result(results, 'marts.mkt_profit_by_sku_and_date')?.status).toBe('skipped');
    expect(result(results, 'marts.mkt_profit_by_date')?.status).toBe('skipped');
  });
});

// Keyed runs: settlements 6001–6003 (each +10.00 − 1.50 = 8.50) built whole; then a run of new files replaces only the
// settlements they hold. 6004 lands damaged (its summary total set to 9.50 in the raw table): the run fails
// stg_mkt__settlements and leaves its three rows as they were. 6005 lands whole: the next run adds it alone.
describe('reconciliation check of a keyed run', () => {
  let wh: Warehouse;
  let dir: string;
  const lines = (order: string): SettlementLine[] => {
    const base: SettlementLine = {
      'transaction-type': 'Order',
      'order-id': order,
      'posted-date-time': '2026-03-12 17:00:00 UTC',
      sku: 'SKU-A',
      'quantity-purchased': '1',
    };
    return [
      { ...base, 'amount-type': 'ItemPrice', 'amount-description': 'Principal', amount: '10.00' },
      { ...base, 'amount-type': 'ItemFees', 'amount-description': 'Commission', amount: '-1.50' },
    ];
  };
  const landSettlement = async (id: string) => {
    await landOk(
      wh,
      SETTLEMENTS,
      US,
      writeSettlement(dir, `settlement-${id}.tsv`, { id, currency: 'USD' }, lines(`K-${id}`)),
    );
    return String(
      (await rows(wh, `select id from control.landed_files where file_name = 'settlement-${id}.tsv'`))[0]!.id,
    );
  };
  const keyedRun = (file: string) =>
    runModels(wh, {
      work: {
        windows: new Map(),
        whole: new Set(),
        keyed: new Set(['staging.stg_mkt__settlement_rows', 'staging.stg_mkt__settlements']),
        newFiles: [file],
      },
    });
  const settlements = () =>
    rows(
      wh,
      `select settlement_id, settlement_total_amount::varchar as total, sum_of_amounts::varchar as amounts, amount_lines::int as lines from staging.stg_mkt__settlements order by settlement_id`,
    );
  const settled = (id: string) => ({ settlement_id: id, total: '8.5000', amounts: '8.5000', lines: 2 });

  beforeAll(async () => {
    ({ wh, dir } = await makeHome());
    for (const id of ['6001', '6002', '6003']) await landSettlement(id);
    await runModels(wh, { select: ['staging.stg_mkt__settlements'] });
  });

  afterAll(async () => wh?.close());

  it('fails on a new settlement that does not add up, and keeps the settlements built before', async () => {
    const file = await landSettlement('6004');
    await wh.sql.run(
      `update raw.get_v2_settlement_report_data_flat_file_v2 set total_amount = 9.50 where settlement_id = '6004' and total_amount is not null`,
    );
    expect((await keyedRun(file)).map((r) => [r.model, r.status, r.findings.map((f) => f.badRows)])).toEqual([
      ['staging.stg_mkt__settlement_rows', 'success', []],
      ['staging.stg_mkt__settlements', 'error', [1]],
    ]);
    expect(await settlements()).toEqual(['6001', '6002', '6003'].map(settled));
  });

  it('adds a new settlement that adds up, alone', async () => {
    const file = await landSettlement('6005');
    expect((await keyedRun(file)).map((r) => r.status)).toEqual(['success', 'success']);
    expect(await settlements()).toEqual(['6001', '6002', '6003', '6005'].map(settled));
  });
});
