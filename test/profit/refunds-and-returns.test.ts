// Spec 001 profit measure rules 6 (refund_count, refund_cost) and 7 (return_units, return_cogs), with
// docs/design/PROFIT.md "Settlement categories" and "Unit cost". Every expectation is worked out by hand below.
//
// Fixtures, one US connection (America/Los_Angeles: PST = UTC-8 until 2026-03-08, PDT = UTC-7 from then on; USD;
// prices exclude tax), built once:
//   unit costs of SKU-A / B000000001: from 2026-01-01 item 4.00 + shipping 1.00 = 5.00 a unit;
//                                      from 2026-03-14 item 6.00 + shipping 1.00 = 7.00 a unit.
//   orders: R-1, 1 unit at 10.00, 2026-03-02T20:00Z = 12:00 PST on 2026-03-02;
//           R-2, 2 units at 20.00 (line price), 2026-03-03T20:00Z = 12:00 PST on 2026-03-03.
//   settlement 1001 (USD):
//     refund of R-1, posted 2026-03-12 18:00 UTC = 11:00 PDT on 2026-03-12, one event of nine lines (quantity 1).
//     refund of R-2, posted 2026-03-13 03:00 UTC = 20:00 PDT on 2026-03-12 (same local day), two lines (quantity 2).
//     an Adjustment / FBA Inventory Reimbursement / CUSTOMER_RETURN +5.00 for SKU-A posted 2026-03-12 19:00 UTC:
//       not a refund (inventory_other: excluded from every measure).
//   returns (return-date converted to Los Angeles):
//     A  2026-03-14T05:30Z = 22:30 PDT on 2026-03-13, SELLABLE,          1 unit, cost on 03-13 = 1 × 5.00 =  5.00
//     B  2026-03-14T18:00Z = 11:00 PDT on 2026-03-14, DEFECTIVE,         2 units, cost on 03-14 = 2 × 7.00 = 14.00
//     C  2026-03-14T19:00Z = 12:00 PDT on 2026-03-14, no disposition,   1 unit,  1 × 7.00 =  7.00
//     D  2026-03-15T18:00Z = 11:00 PDT on 2026-03-15, Sellable (mixed case), 2 units, 2 × 7.00 = 14.00
//     E  2026-03-15T19:00Z = 12:00 PDT on 2026-03-15, CUSTOMER_DAMAGED,  1 unit,  1 × 7.00 =  7.00
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

const SETTLEMENTS = 'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2';
const RETURNS = 'GET_FBA_FULFILLMENT_CUSTOMER_RETURNS_DATA';

describe('profit rules 6 and 7: refunds and returns', () => {
  let wh: Warehouse;

  beforeAll(async () => {
    const made = await makeHome();
    wh = made.wh;
    const dir = made.dir;
    await landCogs(wh, dir, US, [
      'B000000001,SKU-A,USD,2026-01-01,4.00,1.00,Supplier',
      'B000000001,SKU-A,USD,2026-03-14,6.00,1.00,Supplier',
    ]);
    await landOrders(wh, dir, US, [
      orderLine({
        'amazon-order-id': 'R-1',
        'purchase-date': '2026-03-02T20:00:00+00:00',
        'last-updated-date': '2026-03-02T20:00:00+00:00',
      }),
      orderLine({
        'amazon-order-id': 'R-2',
        'purchase-date': '2026-03-03T20:00:00+00:00',
        'last-updated-date': '2026-03-03T20:00:00+00:00',
        quantity: '2',
        'item-price': '20.00',
      }),
    ]);
    const r1 = {
      'transaction-type': 'Refund',
      'order-id': 'R-1',
      'adjustment-id': 'ADJ-R1',
      'marketplace-name': 'Amazon.com',
      'fulfillment-id': 'AFN',
      'posted-date-time': '2026-03-12 18:00:00 UTC',
      'merchant-adjustment-item-id': 'MA-R1',
      sku: 'SKU-A',
      'quantity-purchased': '1',
    };
    const r2 = {
      'transaction-type': 'Refund',
      'order-id': 'R-2',
      'adjustment-id': 'ADJ-R2',
      'marketplace-name': 'Amazon.com',
      'fulfillment-id': 'AFN',
      'posted-date-time': '2026-03-13 03:00:00 UTC',
      'merchant-adjustment-item-id': 'MA-R2',
      sku: 'SKU-A',
      'quantity-purchased': '2',
    };
    await landOk(
      wh,
      SETTLEMENTS,
      US,
      writeSettlement(dir, 'settlement-1001.tsv', { id: '1001', currency: 'USD' }, [
        { ...r1, 'amount-type': 'ItemPrice', 'amount-description': 'Principal', amount: '-10.00' },
        { ...r1, 'amount-type': 'ItemPrice', 'amount-description': 'Shipping', amount: '-2.00' },
        { ...r1, 'amount-type': 'ItemPrice', 'amount-description': 'Tax', amount: '-0.80' },
        { ...r1, 'amount-type': 'ItemPrice', 'amount-description': 'ShippingTax', amount: '-0.16' },
        {
          ...r1,
          'amount-type': 'ItemWithheldTax',
          'amount-description': 'MarketplaceFacilitatorTax-Principal',
          amount: '0.80',
        },
        { ...r1, 'amount-type': 'ItemFees', 'amount-description': 'Commission', amount: '1.50' },
        { ...r1, 'amount-type': 'ItemFees', 'amount-description': 'RefundCommission', amount: '-0.30' },
        { ...r1, 'amount-type': 'Promotion', 'amount-description': 'Shipping', amount: '1.00' },
        { ...r1, 'amount-type': 'ItemFees', 'amount-description': 'DigitalServicesFee', amount: '0.05' },
        { ...r2, 'amount-type': 'ItemPrice', 'amount-description': 'Principal', amount: '-20.00' },
        { ...r2, 'amount-type': 'ItemFees', 'amount-description': 'Commission', amount: '3.00' },
        {
          'transaction-type': 'Adjustment',
          'adjustment-id': 'ADJ-CR',
          'posted-date-time': '2026-03-12 19:00:00 UTC',
          sku: 'SKU-A',
          'quantity-purchased': '1',
          'amount-type': 'FBA Inventory Reimbursement',
          'amount-description': 'CUSTOMER_RETURN',
          amount: '5.00',
        },
      ]),
    );
    const ret = {
      sku: 'SKU-A',
      asin: 'B000000001',
      fnsku: 'X000000001',
      'fulfillment-center-id': 'LEX1',
      reason: 'UNWANTED_ITEM',
    };
    await landOk(
      wh,
      RETURNS,
      US,
      writeReturns(dir, 'returns.tsv', [
        {
          ...ret,
          'return-date': '2026-03-14T05:30:00+00:00',
          'order-id': 'R-1',
          quantity: '1',
          'detailed-disposition': 'SELLABLE',
          'license-plate-number': 'LPNA',
        },
        {
          ...ret,
          'return-date': '2026-03-14T18:00:00+00:00',
          'order-id': 'R-2',
          quantity: '2',
          'detailed-disposition': 'DEFECTIVE',
          'license-plate-number': 'LPNB',
        },
        {
          ...ret,
          'return-date': '2026-03-14T19:00:00+00:00',
          'order-id': 'R-2',
          quantity: '1',
          'detailed-disposition': '',
          'license-plate-number': 'LPNC',
        },
        {
          ...ret,
          'return-date': '2026-03-15T18:00:00+00:00',
          'order-id': 'R-2',
          quantity: '2',
          'detailed-disposition': 'Sellable',
          'license-plate-number': 'LPND',
        },
        {
          ...ret,
          'return-date': '2026-03-15T19:00:00+00:00',
          'order-id': 'R-1',
          quantity: '1',
          'detailed-disposition': 'CUSTOMER_DAMAGED',
          'license-plate-number': 'LPNE',
        },
      ]),
    );
    await buildAll(wh);
  });

  afterAll(async () => wh?.close());

  it('counts Refund events on their local posting date, not lines or quantities', async () => {
    const got = await skuProfit(wh, US.id, ['refund_count']);
    expect(got).toEqual([
      { date: '2026-03-02', child_asin: 'B000000001', sku: 'SKU-A', refund_count: '0.0000' }, // order R-1 only
      { date: '2026-03-03', child_asin: 'B000000001', sku: 'SKU-A', refund_count: '0.0000' }, // order R-2 only
      // Two Refund events (R-1 at 11:00 PDT, R-2 at 20:00 PDT, both 2026-03-12 locally); not 11 lines, not 1 + 2 units;
      // the Adjustment event of the same day is no refund. The refunds' orders date 03-02 and 03-03: refunds use the
      // posting date.
      { date: '2026-03-12', child_asin: 'B000000001', sku: 'SKU-A', refund_count: '2.0000' },
      { date: '2026-03-13', child_asin: 'B000000001', sku: 'SKU-A', refund_count: '0.0000' }, // return A only
      { date: '2026-03-14', child_asin: 'B000000001', sku: 'SKU-A', refund_count: '0.0000' }, // returns B, C
      { date: '2026-03-15', child_asin: 'B000000001', sku: 'SKU-A', refund_count: '0.0000' }, // returns D, E
    ]);
    expect((await dayProfit(wh, US.id, ['refund_count'])).map((r) => [r.date, r.refund_count])).toEqual([
      ['2026-03-02', '0.0000'],
      ['2026-03-03', '0.0000'],
      ['2026-03-12', '2.0000'],
      ['2026-03-13', '0.0000'],
      ['2026-03-14', '0.0000'],
      ['2026-03-15', '0.0000'],
    ]);
  });

  it('sums every refund component except refunded tax, signed as paid, on the posting date', async () => {
    // Principal -10.00 + Shipping -2.00 + Commission (refunded referral fee) +1.50 + RefundCommission -0.30
    //      + Promotion Shipping +1.00 + DigitalServicesFee +0.05 = -9.75; Tax -0.80, ShippingTax -0.16 and the
    //      withheld MarketplaceFacilitatorTax +0.80 are refunded tax: excluded.
    // Principal -20.00 + Commission +3.00 = -17.00.
    // 2026-03-12: -9.75 + -17.00 = -26.75. The CUSTOMER_RETURN reimbursement +5.00 (inventory_other) is no part of it.
    const day = (await skuProfit(wh, US.id, ['refund_cost', 'total_fees', 'profit'])).find(
      (r) => r.date === '2026-03-12',
    );
    // total_fees: refunds are not part of it (rule 6) → 0. profit (rule 11) = 0 - 0 - 0 - 0 - 0 + (-26.75) = -26.75.
    expect(day).toEqual({
      date: '2026-03-12',
      child_asin: 'B000000001',
      sku: 'SKU-A',
      refund_cost: '-26.7500',
      total_fees: '0.0000',
      profit: '-26.7500',
    });
    const account = (await dayProfit(wh, US.id, ['refund_cost', 'total_fees', 'profit'])).find(
      (r) => r.date === '2026-03-12',
    );
    expect(account).toEqual({
      date: '2026-03-12',
      currency: 'USD',
      refund_cost: '-26.7500',
      total_fees: '0.0000',
      profit: '-26.7500',
    });
  });

  it('adds the cost of SELLABLE returns to refund_cost and subtracts the cost of other non-null dispositions', async () => {
    const got = (await skuProfit(wh, US.id, ['refund_cost'])).filter((r) => String(r.date) >= '2026-03-13');
    // Soft, so that the account table below is compared too when the SKU table differs.
    expect.soft(got).toEqual([
      // 03-13: A SELLABLE 1 × 5.00 (the 2026-01-01 cost; 05:30Z on 03-14 is still 03-13 in Los Angeles) → +5.00.
      { date: '2026-03-13', child_asin: 'B000000001', sku: 'SKU-A', refund_cost: '5.0000' },
      // 03-14: no SELLABLE; B DEFECTIVE 2 × 7.00 = 14.00 subtracted; C has no disposition → neither → 0 - 14.00 =
      // -14.00.
      { date: '2026-03-14', child_asin: 'B000000001', sku: 'SKU-A', refund_cost: '-14.0000' },
      // 03-15: D Sellable (case-insensitive) 2 × 7.00 = +14.00; E CUSTOMER_DAMAGED 1 × 7.00 = -7.00 → +7.00.
      { date: '2026-03-15', child_asin: 'B000000001', sku: 'SKU-A', refund_cost: '7.0000' },
    ]);
    const account = (await dayProfit(wh, US.id, ['refund_cost'])).filter((r) => String(r.date) >= '2026-03-13');
    expect(account.map((r) => [r.date, r.refund_cost])).toEqual([
      ['2026-03-13', '5.0000'], // as the SKU row: the only item of the day
      ['2026-03-14', '-14.0000'],
      ['2026-03-15', '7.0000'],
    ]);
  });

  it('puts return_units and return_cogs on the local return date, outside profit', async () => {
    const got = await skuProfit(wh, US.id, ['return_units', 'return_cogs', 'cogs_total', 'profit', 'cogs_present']);
    expect(got).toEqual([
      // 03-02: sales 10.00 - cogs 1 × 5.00 = 5.00.
      {
        date: '2026-03-02',
        child_asin: 'B000000001',
        sku: 'SKU-A',
        return_units: '0.0000',
        return_cogs: '0.0000',
        cogs_total: '5.0000',
        profit: '5.0000',
        cogs_present: true,
      },
      // 03-03: sales 20.00 - cogs 2 × 5.00 = 10.00.
      {
        date: '2026-03-03',
        child_asin: 'B000000001',
        sku: 'SKU-A',
        return_units: '0.0000',
        return_cogs: '0.0000',
        cogs_total: '10.0000',
        profit: '10.0000',
        cogs_present: true,
      },
      // 03-12: refunds only (see above): profit = refund_cost = -26.75; no shipped item or return → cogs_present null.
      {
        date: '2026-03-12',
        child_asin: 'B000000001',
        sku: 'SKU-A',
        return_units: '0.0000',
        return_cogs: '0.0000',
        cogs_total: '0.0000',
        profit: '-26.7500',
        cogs_present: null,
      },
      // 03-13: A, 1 unit, 5.00. profit = refund_cost +5.00 only (return_cogs is not subtracted again, cogs_total 0).
      {
        date: '2026-03-13',
        child_asin: 'B000000001',
        sku: 'SKU-A',
        return_units: '1.0000',
        return_cogs: '5.0000',
        cogs_total: '0.0000',
        profit: '5.0000',
        cogs_present: true,
      },
      // 03-14: B 2 + C 1 = 3 units; 14.00 + 7.00 = 21.00. profit = refund_cost -14.00.
      {
        date: '2026-03-14',
        child_asin: 'B000000001',
        sku: 'SKU-A',
        return_units: '3.0000',
        return_cogs: '21.0000',
        cogs_total: '0.0000',
        profit: '-14.0000',
        cogs_present: true,
      },
      // 03-15: D 2 + E 1 = 3 units; 14.00 + 7.00 = 21.00. profit = refund_cost +7.00.
      {
        date: '2026-03-15',
        child_asin: 'B000000001',
        sku: 'SKU-A',
        return_units: '3.0000',
        return_cogs: '21.0000',
        cogs_total: '0.0000',
        profit: '7.0000',
        cogs_present: true,
      },
    ]);
    const account = await dayProfit(wh, US.id, ['return_units', 'return_cogs', 'profit']);
    expect(account.map((r) => [r.date, r.return_units, r.return_cogs, r.profit])).toEqual([
      ['2026-03-02', '0.0000', '0.0000', '5.0000'],
      ['2026-03-03', '0.0000', '0.0000', '10.0000'],
      ['2026-03-12', '0.0000', '0.0000', '-26.7500'],
      ['2026-03-13', '1.0000', '5.0000', '5.0000'],
      ['2026-03-14', '3.0000', '21.0000', '-14.0000'],
      ['2026-03-15', '3.0000', '21.0000', '7.0000'],
    ]);
  });
});
