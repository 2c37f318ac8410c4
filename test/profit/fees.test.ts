// Spec 001 profit measure rules 9 (total_fees) and 10 (total_selling_fees, fba_fees, awd_fees) with
// docs/design/PROFIT.md
// "Settlement categories" (dates: order-dated categories of a known order take the order's date, everything else the
// posting date, in the marketplace timezone). Expectations worked out by hand.
//
// One US connection (America/Los_Angeles: PST = UTC-8 before 2026-03-08 02:00, PDT = UTC-7 after; USD), built once.
// No unit costs, no ads: profit = total_sales - total_fees + refund_cost here.
// Orders: F-1 SKU-A B000000001, 20.00, 2026-03-03T06:00Z → 22:00 PST on 2026-03-02;
//         F-2 SKU-B B000000002, 12.00, 2026-03-01T20:00Z → 2026-03-01.
// Settlement 3001 (USD):
//   Order F-1 SKU-A posted 2026-03-09 17:00 UTC (10:00 PDT on 03-09): dated on F-1's date 2026-03-02.
//     Principal +20.00, Shipping +1.00, Tax +1.60, MarketplaceFacilitatorTax-Principal -1.60 (withheld tax),
//     Promotion Principal -2.00, Promotion Shipping -0.50, Commission -3.00, FBAPerUnitFulfillmentFee -4.50,
//     DigitalServicesFee -0.10.
//   Order F-9 (unknown order) SKU-B posted 2026-03-10 05:00 UTC (22:00 PDT on 03-09): dated on the posting date 03-09.
//     Principal +12.00, Tax +0.96, MarketplaceFacilitatorTax-Principal -0.96, Commission -1.20,
// FBAPerUnitFulfillmentFee -3.30.
//   Refund F-1 SKU-A posted 2026-03-09 18:00 UTC (03-09): Principal -20.00, Commission +1.00, RefundCommission -0.20.
//   Without SKU, all on 2026-03-09 (posted 19:00-23:00 UTC = 12:00-16:00 PDT):
//     other-transaction Storage Fee -25.00; other-transaction FBAInboundTransportationFee -6.00;
//     other-transaction Subscription Fee -39.99;
//     FBAFees AWD Storage Fee Base fee -10.00 and Discount on Fee +2.00; FBAFees AWD Processing Fee Base fee -3.00;
//     ServiceFee Cost of Advertising TransactionTotalAmount -30.00 (advertising: excluded);
//     other-transaction Current Reserve Amount -50.00 and Previous Reserve Amount Balance +40.00 (reserves: excluded).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { makeHome, US } from '../helpers/home.ts';
import {
  buildAll,
  dayProfit,
  landOk,
  landOrders,
  orderLine,
  skuProfit,
  writeSettlement,
  type SettlementLine,
} from '../helpers/profit.ts';

const FEES = ['total_fees', 'total_selling_fees', 'fba_fees', 'awd_fees'];

describe('profit rules 9 and 10: fees', () => {
  let wh: Warehouse;

  beforeAll(async () => {
    const made = await makeHome();
    wh = made.wh;
    const dir = made.dir;
    await landOrders(wh, dir, US, [
      orderLine({
        'amazon-order-id': 'F-1',
        'purchase-date': '2026-03-03T06:00:00+00:00',
        'last-updated-date': '2026-03-03T06:00:00+00:00',
        'item-price': '20.00',
      }),
      orderLine({
        'amazon-order-id': 'F-2',
        'purchase-date': '2026-03-01T20:00:00+00:00',
        'last-updated-date': '2026-03-01T20:00:00+00:00',
        sku: 'SKU-B',
        asin: 'B000000002',
        'item-price': '12.00',
      }),
    ]);
    const f1: SettlementLine = {
      'transaction-type': 'Order',
      'order-id': 'F-1',
      'shipment-id': 'SH-1',
      'marketplace-name': 'Amazon.com',
      'fulfillment-id': 'AFN',
      'posted-date-time': '2026-03-09 17:00:00 UTC',
      'order-item-code': '11111111111111',
      sku: 'SKU-A',
      'quantity-purchased': '1',
    };
    const f9: SettlementLine = {
      'transaction-type': 'Order',
      'order-id': 'F-9',
      'shipment-id': 'SH-9',
      'marketplace-name': 'Amazon.com',
      'fulfillment-id': 'AFN',
      'posted-date-time': '2026-03-10 05:00:00 UTC',
      'order-item-code': '99999999999999',
      sku: 'SKU-B',
      'quantity-purchased': '1',
    };
    const refund: SettlementLine = {
      'transaction-type': 'Refund',
      'order-id': 'F-1',
      'adjustment-id': 'ADJ-1',
      'posted-date-time': '2026-03-09 18:00:00 UTC',
      'merchant-adjustment-item-id': 'MA-1',
      sku: 'SKU-A',
      'quantity-purchased': '1',
    };
    const other = (time: string, description: string, amount: string): SettlementLine => ({
      'transaction-type': 'other-transaction',
      'posted-date-time': time,
      'amount-type': 'other-transaction',
      'amount-description': description,
      amount,
    });
    const awd: SettlementLine = {
      'transaction-type': 'FBAFees',
      'order-id': 'FBA19CD9HGQ8',
      'posted-date-time': '2026-03-09 22:00:00 UTC',
    };
    await landOk(
      wh,
      'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2',
      US,
      writeSettlement(dir, 'settlement-3001.tsv', { id: '3001', currency: 'USD' }, [
        { ...f1, 'amount-type': 'ItemPrice', 'amount-description': 'Principal', amount: '20.00' },
        { ...f1, 'amount-type': 'ItemPrice', 'amount-description': 'Shipping', amount: '1.00' },
        { ...f1, 'amount-type': 'ItemPrice', 'amount-description': 'Tax', amount: '1.60' },
        {
          ...f1,
          'amount-type': 'ItemWithheldTax',
          'amount-description': 'MarketplaceFacilitatorTax-Principal',
          amount: '-1.60',
        },
        { ...f1, 'amount-type': 'Promotion', 'amount-description': 'Principal', amount: '-2.00' },
        { ...f1, 'amount-type': 'Promotion', 'amount-description': 'Shipping', amount: '-0.50' },
        { ...f1, 'amount-type': 'ItemFees', 'amount-description': 'Commission', amount: '-3.00' },
        { ...f1, 'amount-type': 'ItemFees', 'amount-description': 'FBAPerUnitFulfillmentFee', amount: '-4.50' },
        { ...f1, 'amount-type': 'ItemFees', 'amount-description': 'DigitalServicesFee', amount: '-0.10' },
        { ...f9, 'amount-type': 'ItemPrice', 'amount-description': 'Principal', amount: '12.00' },
        { ...f9, 'amount-type': 'ItemPrice', 'amount-description': 'Tax', amount: '0.96' },
        {
          ...f9,
          'amount-type': 'ItemWithheldTax',
          'amount-description': 'MarketplaceFacilitatorTax-Principal',
          amount: '-0.96',
        },
        { ...f9, 'amount-type': 'ItemFees', 'amount-description': 'Commission', amount: '-1.20' },
        { ...f9, 'amount-type': 'ItemFees', 'amount-description': 'FBAPerUnitFulfillmentFee', amount: '-3.30' },
        { ...refund, 'amount-type': 'ItemPrice', 'amount-description': 'Principal', amount: '-20.00' },
        { ...refund, 'amount-type': 'ItemFees', 'amount-description': 'Commission', amount: '1.00' },
        { ...refund, 'amount-type': 'ItemFees', 'amount-description': 'RefundCommission', amount: '-0.20' },
        other('2026-03-09 19:00:00 UTC', 'Storage Fee', '-25.00'),
        other('2026-03-09 20:00:00 UTC', 'FBAInboundTransportationFee', '-6.00'),
        other('2026-03-09 21:00:00 UTC', 'Subscription Fee', '-39.99'),
        { ...awd, 'amount-type': 'AWD Storage Fee', 'amount-description': 'Base fee', amount: '-10.00' },
        { ...awd, 'amount-type': 'AWD Storage Fee', 'amount-description': 'Discount on Fee', amount: '2.00' },
        { ...awd, 'amount-type': 'AWD Processing Fee', 'amount-description': 'Base fee', amount: '-3.00' },
        {
          'transaction-type': 'ServiceFee',
          'posted-date-time': '2026-03-09 23:00:00 UTC',
          'amount-type': 'Cost of Advertising',
          'amount-description': 'TransactionTotalAmount',
          amount: '-30.00',
        },
        other('2026-03-09 23:30:00 UTC', 'Current Reserve Amount', '-50.00'),
        other('2026-03-09 23:30:00 UTC', 'Previous Reserve Amount Balance', '40.00'),
      ]),
    );
    await buildAll(wh);
  });

  afterAll(async () => wh?.close());

  it('dates the fees of a known order on its local order date and of an unknown order on the posting date', async () => {
    const got = await skuProfit(wh, US.id, FEES);
    expect(got).toEqual([
      // 03-01: order F-2 only, no settlement.
      {
        date: '2026-03-01',
        child_asin: 'B000000002',
        sku: 'SKU-B',
        total_fees: '0.0000',
        total_selling_fees: '0.0000',
        fba_fees: '0.0000',
        awd_fees: '0.0000',
      },
      // 03-02 (F-1's Los Angeles date, though posted 03-09): total_fees = -(promotion -2.00 + commission -3.00
      //   + FBA per unit -4.50 + DigitalServicesFee -0.10) = 9.60; principal, shipping, tax, withheld tax and the
      //   shipping promotion are not fees. selling = -(-3.00) = 3.00; fba = -(-4.50) = 4.50; awd 0.
      {
        date: '2026-03-02',
        child_asin: 'B000000001',
        sku: 'SKU-A',
        total_fees: '9.6000',
        total_selling_fees: '3.0000',
        fba_fees: '4.5000',
        awd_fees: '0.0000',
      },
      // 03-09 SKU-A: the refund only; refunds are not fees → 0.
      {
        date: '2026-03-09',
        child_asin: 'B000000001',
        sku: 'SKU-A',
        total_fees: '0.0000',
        total_selling_fees: '0.0000',
        fba_fees: '0.0000',
        awd_fees: '0.0000',
      },
      // 03-09 SKU-B (unknown order F-9, posted 22:00 PDT on 03-09): -(-1.20 - 3.30) = 4.50; selling 1.20; fba 3.30.
      {
        date: '2026-03-09',
        child_asin: 'B000000002',
        sku: 'SKU-B',
        total_fees: '4.5000',
        total_selling_fees: '1.2000',
        fba_fees: '3.3000',
        awd_fees: '0.0000',
      },
    ]);
  });

  it('keeps fees without SKU, AWD fees net of discounts, and nothing excluded in the account table', async () => {
    const got = await dayProfit(wh, US.id, [...FEES, 'refund_cost', 'profit']);
    expect(got).toEqual([
      // 03-01: sales 12.00, no fee.
      {
        date: '2026-03-01',
        currency: 'USD',
        total_fees: '0.0000',
        total_selling_fees: '0.0000',
        fba_fees: '0.0000',
        awd_fees: '0.0000',
        refund_cost: '0.0000',
        profit: '12.0000',
      },
      // 03-02: as SKU-A; profit = 20.00 - 9.60 = 10.40.
      {
        date: '2026-03-02',
        currency: 'USD',
        total_fees: '9.6000',
        total_selling_fees: '3.0000',
        fba_fees: '4.5000',
        awd_fees: '0.0000',
        refund_cost: '0.0000',
        profit: '10.4000',
      },
      // 03-09:
      //   fba  = SKU-B 3.30 + storage 25.00 + inbound transportation 6.00 = 34.30
      //   awd  = -(-10.00 + 2.00 - 3.00) = 11.00
      //   selling = 1.20
      //   total = SKU-B 4.50 + 25.00 + 6.00 + 11.00 + subscription 39.99 = 86.49
      //     (Cost of Advertising -30.00, reserves -50.00/+40.00, withheld tax: excluded; refund: not a fee)
      //   refund_cost = -20.00 + 1.00 - 0.20 = -19.20
      //   profit = 0 - 86.49 + (-19.20) = -105.69
      {
        date: '2026-03-09',
        currency: 'USD',
        total_fees: '86.4900',
        total_selling_fees: '1.2000',
        fba_fees: '34.3000',
        awd_fees: '11.0000',
        refund_cost: '-19.2000',
        profit: '-105.6900',
      },
    ]);
  });

  it('puts no fee without SKU in any SKU row', async () => {
    // Σ over SKU rows on 03-09: total_fees 0 + 4.50 = 4.50; fba 3.30; awd 0 (the AWD, storage, inbound and subscription
    // fees have no SKU).
    const got = await skuProfit(wh, US.id, FEES);
    const day = got.filter((r) => r.date === '2026-03-09');
    expect(day.map((r) => r.sku)).toEqual(['SKU-A', 'SKU-B']);
    expect(day.map((r) => [r.total_fees, r.fba_fees, r.awd_fees])).toEqual([
      ['0.0000', '0.0000', '0.0000'],
      ['4.5000', '3.3000', '0.0000'],
    ]);
  });
});
