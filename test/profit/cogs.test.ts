// Spec 001 profit measure rule 8 (cogs_item, cogs_shipping, lost_damaged_by_mkt, missing_returns, cogs_total,
// cogs_present) with docs/design/PROFIT.md "Unit cost" and "Settlement categories". Expectations worked out by hand.
//
// One US connection (America/Los_Angeles, PST = UTC-8 before 2026-03-08; USD), built once.
// Unit costs (asin, sku, currency, fromDate, item, shipping):
//   SKU-A B000000001: USD 2026-01-01 4.00 + 1.00; USD 2026-03-05 6.00 + 0.50; EUR 2026-03-05 99.00 + 9.00
//                     (same fromDate, other currency: the USD row wins for a USD item); USD 2026-03-06 50.00 + 5.00
//                     (later than every SKU-A order: never applies to them).
//   SKU-B B000000002: USD 2026-01-01 3.00 + 0.25; EUR 2026-03-01 2.00 + 0.50 (latest fromDate wins whatever its
// currency).
//   SKU-C B000000003: none.
// Orders (purchase time → Los Angeles date):
//   C-1 SKU-A 2 units, 20.00, 2026-03-04T20:00Z → 03-04;  C-2 SKU-A 1 unit, 10.00, 2026-03-05T07:00Z → 23:00 on 03-04;
//   C-3 SKU-A 1 unit, 10.00, 2026-03-05T09:00Z → 01:00 on 03-05;  C-4 SKU-A Unshipped, C-5 SKU-A Cancelled (03-05, not
// shipped);
//   C-6 SKU-B 2 units, 16.00, 2026-03-05T20:00Z → 03-05;  C-7 SKU-C 1 unit, 10.00, 2026-03-05T21:00Z → 03-05.
// Settlement 2001 (USD), all with SKU-A, posting dates in Los Angeles:
//   Adjustment  FBA Inventory Reimbursement WAREHOUSE_LOST        +12.00  2026-03-06 18:00 UTC → 03-06
//   Adjustment  FBA Inventory Reimbursement WAREHOUSE_LOST_MANUAL  +3.00  2026-03-07 07:00 UTC → 23:00 on 03-06
//   Adjustment  FBA Inventory Reimbursement WAREHOUSE_DAMAGE       +9.00  2026-03-06 20:00 UTC (inventory_other: not
// lost)
//   other-transaction FBA Inventory Reimbursement MISSING_FROM_INBOUND +7.00 2026-03-06 21:00 UTC → 03-06
//   other-transaction FBA Inventory Reimbursement MISSING_FROM_INBOUND_CLAWBACK -2.50 2026-03-07 18:00 UTC → 03-07
// Returns on 2026-03-07 (19:00Z and 20:00Z → 11:00 and 12:00 PST): SKU-C 1 unit SELLABLE (no cost),
//   SKU-B 1 unit SELLABLE (EUR 2026-03-01 row: 1 × 2.50).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { makeHome, US } from '../helpers/home.ts';
import {
  buildAll,
  dayProfit,
  landCogs,
  landOk,
  landOrders,
  orderLine,
  skuProfit,
  writeReturns,
  writeSettlement,
} from '../helpers/profit.ts';

const COLUMNS = ['cogs_item', 'cogs_shipping', 'lost_damaged_by_mkt', 'missing_returns', 'cogs_total', 'cogs_present'];

describe('profit rule 8: cost of goods', () => {
  let wh: Warehouse;

  beforeAll(async () => {
    const made = await makeHome();
    wh = made.wh;
    const dir = made.dir;
    await landCogs(wh, dir, US, [
      'B000000001,SKU-A,USD,2026-01-01,4.00,1.00,S1',
      'B000000001,SKU-A,USD,2026-03-05,6.00,0.50,S2',
      'B000000001,SKU-A,EUR,2026-03-05,99.00,9.00,S3',
      'B000000001,SKU-A,USD,2026-03-06,50.00,5.00,S4',
      'B000000002,SKU-B,USD,2026-01-01,3.00,0.25,S5',
      'B000000002,SKU-B,EUR,2026-03-01,2.00,0.50,S6',
    ]);
    const at = (time: string) => ({ 'purchase-date': time, 'last-updated-date': time });
    await landOrders(wh, dir, US, [
      orderLine({ 'amazon-order-id': 'C-1', ...at('2026-03-04T20:00:00+00:00'), quantity: '2', 'item-price': '20.00' }),
      orderLine({ 'amazon-order-id': 'C-2', ...at('2026-03-05T07:00:00+00:00') }),
      orderLine({ 'amazon-order-id': 'C-3', ...at('2026-03-05T09:00:00+00:00') }),
      orderLine({
        'amazon-order-id': 'C-4',
        ...at('2026-03-05T10:00:00+00:00'),
        'order-status': 'Unshipped',
        'item-status': 'Unshipped',
      }),
      orderLine({
        'amazon-order-id': 'C-5',
        ...at('2026-03-05T11:00:00+00:00'),
        'order-status': 'Cancelled',
        'item-status': 'Cancelled',
        'item-price': '',
      }),
      orderLine({
        'amazon-order-id': 'C-6',
        ...at('2026-03-05T20:00:00+00:00'),
        sku: 'SKU-B',
        asin: 'B000000002',
        quantity: '2',
        'item-price': '16.00',
      }),
      orderLine({ 'amazon-order-id': 'C-7', ...at('2026-03-05T21:00:00+00:00'), sku: 'SKU-C', asin: 'B000000003' }),
    ]);
    const reimbursement = { sku: 'SKU-A', 'amount-type': 'FBA Inventory Reimbursement', 'quantity-purchased': '1' };
    await landOk(
      wh,
      'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2',
      US,
      writeSettlement(dir, 'settlement-2001.tsv', { id: '2001', currency: 'USD' }, [
        {
          ...reimbursement,
          'transaction-type': 'Adjustment',
          'adjustment-id': 'ADJ-L1',
          'posted-date-time': '2026-03-06 18:00:00 UTC',
          'amount-description': 'WAREHOUSE_LOST',
          amount: '12.00',
        },
        {
          ...reimbursement,
          'transaction-type': 'Adjustment',
          'adjustment-id': 'ADJ-L2',
          'posted-date-time': '2026-03-07 07:00:00 UTC',
          'amount-description': 'WAREHOUSE_LOST_MANUAL',
          amount: '3.00',
        },
        {
          ...reimbursement,
          'transaction-type': 'Adjustment',
          'adjustment-id': 'ADJ-D1',
          'posted-date-time': '2026-03-06 20:00:00 UTC',
          'amount-description': 'WAREHOUSE_DAMAGE',
          amount: '9.00',
        },
        {
          ...reimbursement,
          'transaction-type': 'other-transaction',
          'posted-date-time': '2026-03-06 21:00:00 UTC',
          'amount-description': 'MISSING_FROM_INBOUND',
          amount: '7.00',
        },
        {
          ...reimbursement,
          'transaction-type': 'other-transaction',
          'posted-date-time': '2026-03-07 18:00:00 UTC',
          'amount-description': 'MISSING_FROM_INBOUND_CLAWBACK',
          amount: '-2.50',
        },
      ]),
    );
    await landOk(
      wh,
      'GET_FBA_FULFILLMENT_CUSTOMER_RETURNS_DATA',
      US,
      writeReturns(dir, 'returns.tsv', [
        {
          'return-date': '2026-03-07T19:00:00+00:00',
          'order-id': 'C-7',
          sku: 'SKU-C',
          asin: 'B000000003',
          quantity: '1',
          'detailed-disposition': 'SELLABLE',
          'license-plate-number': 'LPN1',
        },
        {
          'return-date': '2026-03-07T20:00:00+00:00',
          'order-id': 'C-6',
          sku: 'SKU-B',
          asin: 'B000000002',
          quantity: '1',
          'detailed-disposition': 'SELLABLE',
          'license-plate-number': 'LPN2',
        },
      ]),
    );
    await buildAll(wh);
  });

  afterAll(async () => wh?.close());

  it('costs shipped items with the latest fromDate on the local order date, same currency first', async () => {
    const got = (await skuProfit(wh, US.id, ['cogs_item', 'cogs_shipping', 'cogs_total'])).filter(
      (r) => String(r.date) <= '2026-03-05',
    );
    expect(got).toEqual([
      // 03-04 SKU-A: C-1 2 units + C-2 1 unit (23:00 PST on 03-04, before the 03-05 rows) at 4.00 + 1.00:
      //   item 3 × 4.00 = 12.00, shipping 3 × 1.00 = 3.00, total 15.00.
      {
        date: '2026-03-04',
        child_asin: 'B000000001',
        sku: 'SKU-A',
        cogs_item: '12.0000',
        cogs_shipping: '3.0000',
        cogs_total: '15.0000',
      },
      // 03-05 SKU-A: C-3 only (C-4 unshipped, C-5 cancelled); 2026-03-05 USD row (EUR row of the same fromDate loses,
      //   2026-03-06 row is later): item 6.00, shipping 0.50, total 6.50.
      {
        date: '2026-03-05',
        child_asin: 'B000000001',
        sku: 'SKU-A',
        cogs_item: '6.0000',
        cogs_shipping: '0.5000',
        cogs_total: '6.5000',
      },
      // 03-05 SKU-B: C-6 2 units, latest fromDate 2026-03-01 (EUR) wins over the older USD row: 2 × 2.00 = 4.00, 2 ×
      // 0.50 = 1.00.
      {
        date: '2026-03-05',
        child_asin: 'B000000002',
        sku: 'SKU-B',
        cogs_item: '4.0000',
        cogs_shipping: '1.0000',
        cogs_total: '5.0000',
      },
      // 03-05 SKU-C: no unit cost → 0.
      {
        date: '2026-03-05',
        child_asin: 'B000000003',
        sku: 'SKU-C',
        cogs_item: '0.0000',
        cogs_shipping: '0.0000',
        cogs_total: '0.0000',
      },
    ]);
  });

  it('takes lost and missing-from-inbound reimbursements as negated settlement amounts into cogs_total', async () => {
    const got = (await skuProfit(wh, US.id, [...COLUMNS, 'profit'])).filter((r) => String(r.date) >= '2026-03-06');
    expect(got).toEqual([
      // 03-06 SKU-A: lost = -(12.00 + 3.00) = -15.00 (WAREHOUSE_DAMAGE +9.00 is not lost inventory);
      //   missing = -(7.00) = -7.00; cogs_total = 0 + -15.00 + -7.00 = -22.00; profit = -cogs_total = 22.00;
      //   no shipped item or return → cogs_present null.
      {
        date: '2026-03-06',
        child_asin: 'B000000001',
        sku: 'SKU-A',
        cogs_item: '0.0000',
        cogs_shipping: '0.0000',
        lost_damaged_by_mkt: '-15.0000',
        missing_returns: '-7.0000',
        cogs_total: '-22.0000',
        cogs_present: null,
        profit: '22.0000',
      },
      // 03-07 SKU-A: missing = -(-2.50) = 2.50 (the clawback is a cost); cogs_total 2.50; profit -2.50.
      {
        date: '2026-03-07',
        child_asin: 'B000000001',
        sku: 'SKU-A',
        cogs_item: '0.0000',
        cogs_shipping: '0.0000',
        lost_damaged_by_mkt: '0.0000',
        missing_returns: '2.5000',
        cogs_total: '2.5000',
        cogs_present: null,
        profit: '-2.5000',
      },
      // 03-07 SKU-B: a costed return only → cogs_present true; returns are not in cogs_total.
      //   profit = refund_cost: SELLABLE 1 × 2.50 = +2.50.
      {
        date: '2026-03-07',
        child_asin: 'B000000002',
        sku: 'SKU-B',
        cogs_item: '0.0000',
        cogs_shipping: '0.0000',
        lost_damaged_by_mkt: '0.0000',
        missing_returns: '0.0000',
        cogs_total: '0.0000',
        cogs_present: true,
        profit: '2.5000',
      },
      // 03-07 SKU-C: a return without unit cost → cogs_present false; profit 0.
      {
        date: '2026-03-07',
        child_asin: 'B000000003',
        sku: 'SKU-C',
        cogs_item: '0.0000',
        cogs_shipping: '0.0000',
        lost_damaged_by_mkt: '0.0000',
        missing_returns: '0.0000',
        cogs_total: '0.0000',
        cogs_present: false,
        profit: '0.0000',
      },
    ]);
  });

  it('sets cogs_present true, false or null per SKU row', async () => {
    const got = await skuProfit(wh, US.id, ['cogs_present']);
    expect(got.map((r) => [r.date, r.sku, r.cogs_present])).toEqual([
      ['2026-03-04', 'SKU-A', true], // C-1, C-2 costed
      ['2026-03-05', 'SKU-A', true], // C-3 costed (unshipped C-4 and cancelled C-5 do not count)
      ['2026-03-05', 'SKU-B', true], // C-6 costed
      ['2026-03-05', 'SKU-C', false], // C-7 has no unit cost
      ['2026-03-06', 'SKU-A', null], // settlement events only
      ['2026-03-07', 'SKU-A', null], // settlement events only
      ['2026-03-07', 'SKU-B', true], // costed return
      ['2026-03-07', 'SKU-C', false], // uncosted return
    ]);
  });

  it('adds up the same measures per day in the account table', async () => {
    const got = await dayProfit(wh, US.id, [...COLUMNS, 'profit']);
    expect(got).toEqual([
      // 03-04: as SKU-A. profit = sales (20.00 + 10.00) - 15.00 = 15.00.
      {
        date: '2026-03-04',
        currency: 'USD',
        cogs_item: '12.0000',
        cogs_shipping: '3.0000',
        lost_damaged_by_mkt: '0.0000',
        missing_returns: '0.0000',
        cogs_total: '15.0000',
        cogs_present: true,
        profit: '15.0000',
      },
      // 03-05: item 6.00 + 4.00 = 10.00; shipping 0.50 + 1.00 = 1.50; total 11.50; SKU-C uncosted → false.
      //   profit = sales (C-3 10.00 + C-6 16.00 + C-7 10.00 = 36.00) - 11.50 = 24.50.
      {
        date: '2026-03-05',
        currency: 'USD',
        cogs_item: '10.0000',
        cogs_shipping: '1.5000',
        lost_damaged_by_mkt: '0.0000',
        missing_returns: '0.0000',
        cogs_total: '11.5000',
        cogs_present: false,
        profit: '24.5000',
      },
      // 03-06: -15.00 and -7.00 → -22.00; null; profit 22.00.
      {
        date: '2026-03-06',
        currency: 'USD',
        cogs_item: '0.0000',
        cogs_shipping: '0.0000',
        lost_damaged_by_mkt: '-15.0000',
        missing_returns: '-7.0000',
        cogs_total: '-22.0000',
        cogs_present: null,
        profit: '22.0000',
      },
      // 03-07: missing 2.50; returns SKU-B costed, SKU-C not → false; profit = -2.50 + refund_cost 2.50 = 0.00.
      {
        date: '2026-03-07',
        currency: 'USD',
        cogs_item: '0.0000',
        cogs_shipping: '0.0000',
        lost_damaged_by_mkt: '0.0000',
        missing_returns: '2.5000',
        cogs_total: '2.5000',
        cogs_present: false,
        profit: '0.0000',
      },
    ]);
  });
});
