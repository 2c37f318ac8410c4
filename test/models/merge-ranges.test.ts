import { describe, expect, it } from 'vitest';
import { mergeRanges } from '../../src/models/date-ranges.ts';
import { runModels } from '../../src/models/run-models.ts';
import { land, makeHome, rows, US, writeOrders } from '../helpers/home.ts';

const every = { from: '1900-01-01', to: '9999-12-31' };

describe('mergeRanges', () => {
  it('joins overlapping and adjacent ranges, including two that reach 9999-12-31', () => {
    expect(
      mergeRanges([
        { from: '2026-03-05', to: '2026-03-09' },
        { from: '2026-03-01', to: '2026-03-04' },
        { from: '2026-03-20', to: '2026-03-21' },
      ]),
    ).toEqual([
      { from: '2026-03-01', to: '2026-03-09' },
      { from: '2026-03-20', to: '2026-03-21' },
    ]);
    // A whole-table window planned twice in one run (late data and a retry of a killed run).
    expect(mergeRanges([every, every])).toEqual([every]);
    expect(mergeRanges([every, { from: '2026-03-01', to: '9999-12-31' }])).toEqual([every]);
  });

  it('writes each row once when a run holds two whole-table windows of one connection', async () => {
    const { wh, dir } = await makeHome();
    const line = (id: string, date: string) => ({
      'amazon-order-id': id,
      'purchase-date': date,
      'order-status': 'Shipped',
      sku: 'MUG',
      quantity: '1',
      currency: 'USD',
      'item-price': '10.00',
    });
    await land(
      wh,
      'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
      US,
      writeOrders(dir, 'orders.tsv', [
        line('111-1', '2026-03-01T20:00:00+00:00'),
        line('111-2', '2026-03-02T20:00:00+00:00'),
      ]),
    );
    const model = 'marts.mkt_order_items_with_cogs';
    await runModels(wh, { select: [model] });
    const results = await runModels(wh, {
      select: [model],
      work: {
        windows: new Map([[model, new Map([[US.id, [every, every]]])]]),
        whole: new Set(),
        keyed: new Set(),
        newFiles: [],
      },
    });
    expect(results.find((r) => r.model === model)?.status).toBe('success');
    // Two order lines, each once.
    expect(await rows(wh, `select mkt_order_id, count(*)::int as n from ${model} group by all order by 1`)).toEqual([
      { mkt_order_id: '111-1', n: 1 },
      { mkt_order_id: '111-2', n: 1 },
    ]);
    await wh.close();
  });
});
