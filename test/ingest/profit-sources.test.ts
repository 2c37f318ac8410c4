import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { findSource } from '../../src/ingest/sources/index.ts';
import { land, makeHome, rows, US, DE } from '../helpers/home.ts';
import { settlementHeader, trafficReport, writeJson, type SettlementLine } from '../helpers/profit.ts';

const sample = (name: string) => fileURLToPath(new URL(`../../fixtures/upstream-samples/${name}`, import.meta.url));

/** A tab-separated file from a header and lines of named fields (missing fields empty). */
function writeTsv(dir: string, name: string, header: string[], lines: Partial<Record<string, string>>[]): string {
  const text = [header.join('\t'), ...lines.map((l) => header.map((h) => l[h] ?? '').join('\t'))].join('\n') + '\n';
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const count = async (wh: Warehouse, table: string) => (await rows(wh, `select count(*)::int as n from ${table}`))[0]?.n;
const landedFiles = async (wh: Warehouse, source: string) =>
  (await rows(wh, `select count(*)::int as n from control.landed_files where source = $s`, { s: source }))[0]?.n;

describe('ingest GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2', () => {
  const SOURCE = 'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2';
  const raw = 'raw.get_v2_settlement_report_data_flat_file_v2';
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  // A German settlement as delivered: day-first timestamps, decimal commas, summary line first.
  const summary: SettlementLine = {
    'settlement-id': '11223344556',
    'settlement-start-date': '01.06.2025 00:00:00 UTC',
    'settlement-end-date': '15.06.2025 00:00:00 UTC',
    'deposit-date': '17.06.2025 06:00:00 UTC',
    'total-amount': '85,66', // 119,00 - 12,34 - 21,00
    currency: 'EUR',
  };
  const order: SettlementLine = {
    'settlement-id': '11223344556',
    'transaction-type': 'Order',
    'order-id': '302-1234567-1234567',
    'marketplace-name': 'Amazon.de',
    'fulfillment-id': 'AFN',
    'posted-date': '09/06/25',
    'posted-date-time': '09.06.2025 05:23:19 UTC',
    'order-item-code': '12345678901234',
    sku: 'SKU-A',
    'quantity-purchased': '1',
  };
  const lines: SettlementLine[] = [
    summary,
    { ...order, 'amount-type': 'ItemPrice', 'amount-description': 'Principal', amount: '119,00' },
    { ...order, 'amount-type': 'ItemFees', 'amount-description': 'Commission', amount: '-12,34' },
    // An FBAFees row: the order-id holds an FBA shipment id and marketplace-name is empty.
    {
      'settlement-id': '11223344556',
      'transaction-type': 'FBAFees',
      'order-id': 'FBA19CD9HGQ8',
      'amount-type': 'Inbound Defect Fee',
      'amount-description': 'Base fee',
      amount: '-21,00',
      'posted-date': '10/06/25',
      'posted-date-time': '10.06.2025 08:00:00 UTC',
    },
  ];

  it('lands every line as delivered: summary line, signed amounts, day-first timestamps, decimal commas', async () => {
    const result = await land(wh, SOURCE, DE, writeTsv(dir, 'settlement-de.tsv', settlementHeader, lines));
    expect(result).toMatchObject({ status: 'landed', rows: 4 });
    const got = await rows(
      wh,
      `select _line_number, settlement_id, timezone('UTC', settlement_start_date)::varchar as start_utc,
        timezone('UTC', settlement_end_date)::varchar as end_utc, timezone('UTC', deposit_date)::varchar as deposit_utc, total_amount, currency,
        transaction_type, order_id, marketplace_name, amount_type, amount_description, amount, posted_date,
        timezone('UTC', posted_date_time)::varchar as posted_utc, order_item_code, sku, quantity_purchased, _marketplace_id
      from ${raw} order by _line_number`,
    );
    const none = {
      transaction_type: null,
      order_id: null,
      marketplace_name: null,
      amount_type: null,
      amount_description: null,
      amount: null,
      posted_date: null,
      posted_utc: null,
      order_item_code: null,
      sku: null,
      quantity_purchased: null,
    };
    const noSummary = { start_utc: null, end_utc: null, deposit_utc: null, total_amount: null, currency: null };
    const orderFields = {
      transaction_type: 'Order',
      order_id: '302-1234567-1234567',
      marketplace_name: 'Amazon.de',
      // posted-date stays the text as delivered; posted-date-time 09.06.2025 (day first) is 9 June 2025.
      posted_date: '09/06/25',
      posted_utc: '2025-06-09 05:23:19',
      order_item_code: '12345678901234',
      sku: 'SKU-A',
      quantity_purchased: '1',
    };
    expect(got).toEqual([
      // Line 2 is the summary line: kept in the raw table with its dates (1 June, 15 June, 17 June 2025) and total
      // 85,66.
      {
        _line_number: '2',
        settlement_id: '11223344556',
        start_utc: '2025-06-01 00:00:00',
        end_utc: '2025-06-15 00:00:00',
        deposit_utc: '2025-06-17 06:00:00',
        total_amount: '85.6600',
        currency: 'EUR',
        ...none,
        _marketplace_id: DE.marketplaceId,
      },
      // Credit to the seller positive (119,00), debit negative (-12,34).
      {
        _line_number: '3',
        settlement_id: '11223344556',
        ...noSummary,
        ...orderFields,
        amount_type: 'ItemPrice',
        amount_description: 'Principal',
        amount: '119.0000',
        _marketplace_id: DE.marketplaceId,
      },
      {
        _line_number: '4',
        settlement_id: '11223344556',
        ...noSummary,
        ...orderFields,
        amount_type: 'ItemFees',
        amount_description: 'Commission',
        amount: '-12.3400',
        _marketplace_id: DE.marketplaceId,
      },
      {
        _line_number: '5',
        settlement_id: '11223344556',
        ...noSummary,
        ...none,
        transaction_type: 'FBAFees',
        order_id: 'FBA19CD9HGQ8',
        amount_type: 'Inbound Defect Fee',
        amount_description: 'Base fee',
        amount: '-21.0000',
        posted_date: '10/06/25',
        posted_utc: '2025-06-10 08:00:00',
        _marketplace_id: DE.marketplaceId,
      },
    ]);
    // The control total holds: 119.00 - 12.34 - 21.00 = 85.66 = total-amount.
    expect(await rows(wh, `select sum(amount)::varchar as s from ${raw}`)).toEqual([{ s: '85.6600' }]);
  });

  it('reads ISO-like UTC timestamps with decimal points too', async () => {
    const us: SettlementLine[] = [
      {
        'settlement-id': '900002',
        'settlement-start-date': '2026-03-01 00:00:00 UTC',
        'settlement-end-date': '2026-03-15 00:00:00 UTC',
        'deposit-date': '2026-03-17 00:00:00 UTC',
        'total-amount': '-39.99',
        currency: 'USD',
      },
      {
        'settlement-id': '900002',
        'transaction-type': 'other-transaction',
        'amount-type': 'other-transaction',
        'amount-description': 'Storage Fee',
        amount: '-39.99',
        'posted-date-time': '2026-03-10 07:30:00 UTC',
      },
    ];
    expect(await land(wh, SOURCE, US, writeTsv(dir, 'settlement-us.tsv', settlementHeader, us))).toMatchObject({
      status: 'landed',
      rows: 2,
    });
    expect(
      await rows(
        wh,
        `select _line_number, total_amount, amount, timezone('UTC', posted_date_time)::varchar as posted_utc, order_id from ${raw} order by _line_number`,
      ),
    ).toEqual([
      { _line_number: '2', total_amount: '-39.9900', amount: null, posted_utc: null, order_id: null },
      { _line_number: '3', total_amount: null, amount: '-39.9900', posted_utc: '2026-03-10 07:30:00', order_id: null },
    ]);
  });

  it('refuses a file with a bad amount whole, naming its line, and lands nothing', async () => {
    // Lines: 1 header, 2 summary, 3 principal, 4 the bad amount, 5 FBA fee.
    const bad = lines.map((l, i) => (i === 2 ? { ...l, amount: '-12,3x' } : l));
    const result = await land(wh, SOURCE, DE, writeTsv(dir, 'settlement-bad.tsv', settlementHeader, bad));
    expect(result).toMatchObject({ status: 'refused', line: 4 });
    expect((result as { reason: string }).reason).toMatch(/amount/);
    expect((result as { reason: string }).reason).toMatch(/-12,3x/);
    expect(await count(wh, raw)).toBe(0);
    expect(await landedFiles(wh, SOURCE)).toBe(0);
  });

  it('skips the same file landed twice', async () => {
    const file = writeTsv(dir, 'settlement-de.tsv', settlementHeader, lines);
    const first = await land(wh, SOURCE, DE, file);
    expect(first).toMatchObject({ status: 'landed', rows: 4 });
    expect(await land(wh, SOURCE, DE, file)).toMatchObject({
      status: 'skipped',
      fileId: (first as { fileId: string }).fileId,
    });
    expect(await count(wh, raw)).toBe(4);
  });
});

describe('ingest GET_FBA_FULFILLMENT_CUSTOMER_RETURNS_DATA', () => {
  const SOURCE = 'GET_FBA_FULFILLMENT_CUSTOMER_RETURNS_DATA';
  const raw = 'raw.get_fba_fulfillment_customer_returns_data';
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  it('lands ISO-with-offset return dates and the amazon-order-id header alias', async () => {
    const header =
      'return-date amazon-order-id sku asin fnsku product-name quantity fulfillment-center-id detailed-disposition reason status license-plate-number customer-comments'.split(
        ' ',
      );
    const file = writeTsv(dir, 'returns.tsv', header, [
      {
        'return-date': '2025-06-05T15:31:40+00:00',
        'amazon-order-id': '111-1111111-1111111',
        sku: 'SKU-A',
        asin: 'B000000001',
        fnsku: 'X00000000A',
        'product-name': 'Bottle',
        quantity: '1',
        'fulfillment-center-id': 'LEX1',
        'detailed-disposition': 'SELLABLE',
        reason: 'UNWANTED_ITEM',
        status: 'Unit returned to inventory',
        'license-plate-number': 'LPNRR0000001',
      },
      // -08:00 offset: 23:30 on 10 March in UTC-8 is 07:30 UTC on 11 March.
      {
        'return-date': '2026-03-10T23:30:00-08:00',
        'amazon-order-id': '111-2222222-2222222',
        sku: 'SKU-B',
        asin: 'B000000002',
        quantity: '2',
        'detailed-disposition': 'CUSTOMER_DAMAGED',
        reason: 'DEFECTIVE',
        status: 'Reimbursed',
        'customer-comments': 'Broke after a day',
      },
    ]);
    expect(await land(wh, SOURCE, US, file)).toMatchObject({ status: 'landed', rows: 2 });
    expect(
      await rows(
        wh,
        `select _line_number, timezone('UTC', return_date)::varchar as return_utc, order_id, sku, asin, quantity, detailed_disposition, status, customer_comments, _extra
      from ${raw} order by _line_number`,
      ),
    ).toEqual([
      {
        _line_number: '2',
        return_utc: '2025-06-05 15:31:40',
        order_id: '111-1111111-1111111',
        sku: 'SKU-A',
        asin: 'B000000001',
        quantity: '1',
        detailed_disposition: 'SELLABLE',
        status: 'Unit returned to inventory',
        customer_comments: null,
        _extra: null,
      },
      {
        _line_number: '3',
        return_utc: '2026-03-11 07:30:00',
        order_id: '111-2222222-2222222',
        sku: 'SKU-B',
        asin: 'B000000002',
        quantity: '2',
        detailed_disposition: 'CUSTOMER_DAMAGED',
        status: 'Reimbursed',
        customer_comments: 'Broke after a day',
        _extra: null,
      },
    ]);
  });
});

describe('ingest GET_SALES_AND_TRAFFIC_REPORT', () => {
  const SOURCE = 'GET_SALES_AND_TRAFFIC_REPORT';
  const raw = 'raw.get_sales_and_traffic_report';
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  it('lands a one-day CHILD report as one row per by-ASIN entry, tolerating missing keys', async () => {
    const report = trafficReport('2026-03-10', US.marketplaceId, [
      {
        childAsin: 'B000000001',
        parentAsin: 'B0000000P1',
        salesByAsin: {
          unitsOrdered: 3,
          orderedProductSales: { amount: 29.97, currencyCode: 'USD' },
          totalOrderItems: 3,
        },
        trafficByAsin: {
          browserSessions: 30,
          mobileAppSessions: 10,
          sessions: 40,
          browserPageViews: 41,
          mobileAppPageViews: 14,
          pageViews: 55,
          buyBoxPercentage: 97.5,
          unitSessionPercentage: 7.5,
        },
      },
      // Only a few traffic keys, no sales block at all.
      { childAsin: 'B000000002', trafficByAsin: { sessions: 5, pageViews: 6 } },
    ]);
    expect(await land(wh, SOURCE, US, writeJson(dir, 'st.json', report))).toMatchObject({ status: 'landed', rows: 2 });
    expect(
      await rows(
        wh,
        `select _line_number, date, asin_granularity, parent_asin, child_asin, sku, currency_code, ordered_product_sales, ordered_product_sales_b2b,
        units_ordered, units_ordered_b2b, total_order_items, sessions, sessions_b2b, page_views, page_views_b2b, browser_page_views, buy_box_percentage,
        buy_box_percentage_b2b, unit_session_percentage, _marketplace_id
      from ${raw} order by _line_number`,
      ),
    ).toEqual([
      {
        _line_number: '1',
        date: '2026-03-10',
        asin_granularity: 'CHILD',
        parent_asin: 'B0000000P1',
        child_asin: 'B000000001',
        sku: null,
        currency_code: 'USD',
        ordered_product_sales: '29.9700',
        ordered_product_sales_b2b: null,
        units_ordered: '3',
        units_ordered_b2b: null,
        total_order_items: '3',
        sessions: '40',
        sessions_b2b: null,
        page_views: '55',
        page_views_b2b: null,
        browser_page_views: '41',
        buy_box_percentage: '97.5000',
        buy_box_percentage_b2b: null,
        unit_session_percentage: '7.5000',
        _marketplace_id: US.marketplaceId,
      },
      {
        _line_number: '2',
        date: '2026-03-10',
        asin_granularity: 'CHILD',
        parent_asin: 'B000000002',
        child_asin: 'B000000002',
        sku: null,
        currency_code: null,
        ordered_product_sales: null,
        ordered_product_sales_b2b: null,
        units_ordered: null,
        units_ordered_b2b: null,
        total_order_items: null,
        sessions: '5',
        sessions_b2b: null,
        page_views: '6',
        page_views_b2b: null,
        browser_page_views: null,
        buy_box_percentage: null,
        buy_box_percentage_b2b: null,
        unit_session_percentage: null,
        _marketplace_id: US.marketplaceId,
      },
    ]);
  });

  it('lands into a raw table that still has the by-ASIN shipped and refunded columns of earlier versions', async () => {
    // Those fields exist by date only; a home made before they left the by-ASIN columns keeps them, null from now on.
    await wh.sql.run(findSource(SOURCE).createTable);
    await wh.sql.run(`alter table ${raw} add column units_shipped bigint`);
    const report = trafficReport('2026-03-10', US.marketplaceId, [
      { childAsin: 'B000000001', salesByAsin: { unitsOrdered: 2 }, trafficByAsin: { sessions: 9 } },
    ]);
    expect(await land(wh, SOURCE, US, writeJson(dir, 'st.json', report))).toMatchObject({ status: 'landed', rows: 1 });
    expect(await rows(wh, `select child_asin, units_ordered, sessions, units_shipped from ${raw}`)).toEqual([
      { child_asin: 'B000000001', units_ordered: '2', sessions: '9', units_shipped: null },
    ]);
  });

  it("refuses Amazon's own multi-day sample, naming one-day reports, and lands nothing", async () => {
    // The sample covers 2021-06-11..2021-06-14: its by-ASIN block has no date.
    const result = await land(wh, SOURCE, US, sample('GET_SALES_AND_TRAFFIC_REPORT.example.json'));
    expect(result).toMatchObject({ status: 'refused' });
    expect((result as { reason: string }).reason).toMatch(/one-day/);
    expect(await count(wh, raw)).toBe(0);
    expect(await landedFiles(wh, SOURCE)).toBe(0);
  });

  it('refuses a PARENT report (no child ASIN) and lands nothing', async () => {
    const report = {
      ...trafficReport('2026-03-10', US.marketplaceId, [], 'PARENT'),
      salesAndTrafficByAsin: [
        { parentAsin: 'B0000000P1', salesByAsin: { unitsOrdered: 1 }, trafficByAsin: { sessions: 4 } },
      ],
    };
    const result = await land(wh, SOURCE, US, writeJson(dir, 'parent.json', report));
    expect(result).toMatchObject({ status: 'refused', line: 1 });
    expect((result as { reason: string }).reason).toMatch(/PARENT/);
    expect(await count(wh, raw)).toBe(0);
    expect(await landedFiles(wh, SOURCE)).toBe(0);
  });
});

describe('ingest ads.spAdvertisedProduct', () => {
  const SOURCE = 'ads.spAdvertisedProduct';
  const raw = 'raw.ads_sp_advertised_product';
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  const report = [
    {
      date: '2026-03-10',
      campaignId: 123456789,
      campaignName: 'Bottles',
      adGroupId: 987654321,
      adGroupName: 'All',
      adId: 555,
      advertisedAsin: 'B000000001',
      advertisedSku: 'SKU-A',
      campaignBudgetCurrencyCode: 'USD',
      impressions: 1200,
      clicks: 14,
      cost: 7.35,
      purchases7d: 2,
      purchasesSameSku7d: 1,
      unitsSoldClicks7d: 3,
      unitsSoldSameSku7d: 1,
      sales7d: 45.5,
      attributedSalesSameSku7d: 19.99,
      // Columns the raw table does not type: kept in _extra.
      campaignStatus: 'ENABLED',
      costPerClick: 0.525,
    },
    {
      date: '2026-03-11',
      campaignId: '123456789',
      adGroupId: '987654321',
      advertisedAsin: 'B000000002',
      advertisedSku: 'SKU-B',
      impressions: 10,
      clicks: 0,
      cost: 0,
      sales7d: 0,
      attributedSalesSameSku7d: 0,
    },
  ];
  const expected = [
    {
      _line_number: '1',
      date: '2026-03-10',
      campaign_id: '123456789',
      ad_group_id: '987654321',
      ad_id: '555',
      advertised_asin: 'B000000001',
      advertised_sku: 'SKU-A',
      campaign_budget_currency_code: 'USD',
      impressions: '1200',
      clicks: '14',
      cost: '7.3500',
      purchases7d: '2',
      purchases_same_sku7d: '1',
      units_sold_clicks7d: '3',
      units_sold_same_sku7d: '1',
      sales7d: '45.5000',
      attributed_sales_same_sku7d: '19.9900',
      extra: { campaignStatus: 'ENABLED', costPerClick: 0.525 },
    },
    {
      _line_number: '2',
      date: '2026-03-11',
      campaign_id: '123456789',
      ad_group_id: '987654321',
      ad_id: null,
      advertised_asin: 'B000000002',
      advertised_sku: 'SKU-B',
      campaign_budget_currency_code: null,
      impressions: '10',
      clicks: '0',
      cost: '0.0000',
      purchases7d: null,
      purchases_same_sku7d: null,
      units_sold_clicks7d: null,
      units_sold_same_sku7d: null,
      sales7d: '0.0000',
      attributed_sales_same_sku7d: '0.0000',
      extra: null,
    },
  ];
  const landedRows = async () =>
    (
      await rows(
        wh,
        `select _line_number, date, campaign_id, ad_group_id, ad_id, advertised_asin, advertised_sku, campaign_budget_currency_code, impressions, clicks, cost,
        purchases7d, purchases_same_sku7d, units_sold_clicks7d, units_sold_same_sku7d, sales7d, attributed_sales_same_sku7d, _extra::varchar as extra
      from ${raw} order by _line_number`,
      )
    ).map((r) => ({ ...r, extra: r.extra === null ? null : JSON.parse(String(r.extra)) }));

  it('lands a JSON array of report rows, unknown columns in _extra', async () => {
    expect(await land(wh, SOURCE, US, writeJson(dir, 'sp.json', report))).toMatchObject({ status: 'landed', rows: 2 });
    expect(await landedRows()).toEqual(expected);
  });

  it('lands the gzip download the same way', async () => {
    expect(await land(wh, SOURCE, US, writeJson(dir, 'sp.json.gz', report, { gzip: true }))).toMatchObject({
      status: 'landed',
      rows: 2,
    });
    expect(await landedRows()).toEqual(expected);
  });

  it('refuses a document that is not an array', async () => {
    const result = await land(wh, SOURCE, US, writeJson(dir, 'object.json', { rows: report }));
    expect(result).toMatchObject({ status: 'refused', line: null });
    expect((result as { reason: string }).reason).toMatch(/array/);
    expect(await count(wh, raw)).toBe(0);
    expect(await landedFiles(wh, SOURCE)).toBe(0);
  });

  it('refuses a bad value whole, naming the record number and field', async () => {
    const bad = [report[0], { ...report[1], cost: '1.2.3' }];
    const result = await land(wh, SOURCE, US, writeJson(dir, 'bad.json', bad));
    expect(result).toMatchObject({ status: 'refused', line: 2 });
    expect((result as { reason: string }).reason).toMatch(/record 2/);
    expect((result as { reason: string }).reason).toMatch(/cost/);
    expect(await count(wh, raw)).toBe(0);
    expect(await landedFiles(wh, SOURCE)).toBe(0);
  });

  it('skips the same file landed twice', async () => {
    const file = writeJson(dir, 'sp.json', report);
    const first = await land(wh, SOURCE, US, file);
    expect(first).toMatchObject({ status: 'landed', rows: 2 });
    expect(await land(wh, SOURCE, US, file)).toEqual({
      status: 'skipped',
      file,
      fileId: (first as { fileId: string }).fileId,
    });
    expect(await count(wh, raw)).toBe(2);
  });
});
