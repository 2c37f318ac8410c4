// docs/design/PROFIT.md "Settlement categories": an order-dated event of a known order takes the order's local date, of
// an unknown order the posting date. mkt_settlements_with_cogs looks the orders up first among the 92 days before its
// window, then across the whole history; this is the second path, in a window of recent dates.
//
// One US connection (America/Los_Angeles, PDT = UTC-7 in June, PST = UTC-8 in January).
// Orders: O-OLD 10.00 purchased 2026-01-10T20:00Z → 2026-01-10 PST, 160 days before the window;
//         O-NEW 10.00 purchased 2026-06-20T20:00Z → 2026-06-20 PDT, inside the window.
// Settlement 4001 posts both on 2026-06-25T17:00Z (10:00 PDT on 06-25): O-OLD Principal 10.00 and Commission -1.50,
// O-NEW Principal 10.00. O-X (unknown) Principal 5.00 posts too.
// The window 2026-06-15..2026-06-30 is rebuilt after a whole build: the O-OLD event stays on 01-10 alone (not
// re-dated on its posting date 06-25, which would make it twice), O-NEW's is on 06-20, O-X's on 06-25.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { runModels } from '../../src/models/run-models.ts';
import { makeHome, rows, US } from '../helpers/home.ts';
import { buildAll, landOk, landOrders, orderLine, writeSettlement, type SettlementLine } from '../helpers/profit.ts';

const model = 'marts.mkt_settlements_with_cogs';

describe('mkt_settlements_with_cogs: the dates of orders long before the window', () => {
  let wh: Warehouse;

  beforeAll(async () => {
    const made = await makeHome();
    wh = made.wh;
    await landOrders(wh, made.dir, US, [
      orderLine({
        'amazon-order-id': 'O-OLD',
        'purchase-date': '2026-01-10T20:00:00+00:00',
        'last-updated-date': '2026-01-10T20:00:00+00:00',
      }),
      orderLine({
        'amazon-order-id': 'O-NEW',
        'purchase-date': '2026-06-20T20:00:00+00:00',
        'last-updated-date': '2026-06-20T20:00:00+00:00',
      }),
    ]);
    const line = (order: string, item: string): SettlementLine => ({
      'transaction-type': 'Order',
      'order-id': order,
      'shipment-id': `SH-${order}`,
      'posted-date-time': '2026-06-25 17:00:00 UTC',
      'order-item-code': item,
      sku: 'SKU-A',
      'quantity-purchased': '1',
      'amount-type': 'ItemPrice',
      'amount-description': 'Principal',
    });
    await landOk(
      wh,
      'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2',
      US,
      writeSettlement(made.dir, 'settlement-4001.tsv', { id: '4001', currency: 'USD' }, [
        { ...line('O-OLD', '1'), amount: '10.00' },
        { ...line('O-OLD', '1'), 'amount-type': 'ItemFees', 'amount-description': 'Commission', amount: '-1.50' },
        { ...line('O-NEW', '2'), amount: '10.00' },
        { ...line('O-X', '3'), amount: '5.00' },
      ]),
    );
    await buildAll(wh);
  });

  afterAll(async () => wh?.close());

  const events = () =>
    rows(
      wh,
      `select mkt_order_id, date::varchar as date, date_basis, total_amount::varchar as total
    from ${model} order by mkt_order_id`,
    );

  const expected = [
    // O-NEW: 10.00 on its order date.
    { mkt_order_id: 'O-NEW', date: '2026-06-20', date_basis: 'order', total: '10.0000' },
    // O-OLD: 10.00 - 1.50 = 8.50 on its order date.
    { mkt_order_id: 'O-OLD', date: '2026-01-10', date_basis: 'order', total: '8.5000' },
    // O-X: unknown, on the posting date.
    { mkt_order_id: 'O-X', date: '2026-06-25', date_basis: 'posting', total: '5.0000' },
  ];

  it('dates every event by its order, or by its posting for an unknown order, in a whole build', async () => {
    expect(await events()).toEqual(expected);
  });

  it('leaves an event of an order dated before the window out of the window it was posted in', async () => {
    const window = new Map([[model, new Map([[US.id, [{ from: '2026-06-15', to: '2026-06-30' }]]])]]);
    const results = await runModels(wh, {
      select: [model],
      upstream: false,
      work: { windows: window, whole: new Set(), keyed: new Set(), newFiles: [] },
    });
    expect(results.map((r) => [r.model, r.status, r.error])).toEqual([[model, 'success', undefined]]);
    expect(await events()).toEqual(expected);
  });
});
