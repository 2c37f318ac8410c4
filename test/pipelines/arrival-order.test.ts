// The same documents give the same tables, whatever order they arrive in (spec 001 "Profit measure rules" 9; design
// docs/design/PROFIT.md "Settlement categories": an order-dated settlement event takes its order's date once the order
// is known).
//
// The hand-worked case. One US connection (America/Los_Angeles, PDT = UTC-7 in September; USD), pipelines run at
// 2026-10-16T18:00Z:
//   Order A-1, SKU-A B000000001, 20.00, bought 2026-09-05T18:00Z (11:00 PDT on 09-05).
//   Settlement 4001: order A-1 posted 2026-09-20T17:00Z (10:00 PDT on 09-20): Principal +20.00, Commission -3.00,
//     FBAPerUnitFulfillmentFee -4.50. One event; its fees, 3.00 + 4.50 = 7.50, are dated on A-1's date 09-05.
//   Return of A-1 on 2026-09-25T16:00Z (09:00 PDT on 09-25): its order_date is 2026-09-05.
// Landed settlement and return first, the order a run later, the tables must be those of one run: one event, on
// 09-05, total_fees 7.50 on 09-05 and none on 09-20, the return's order date 09-05.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { loadPipelines } from '../../src/pipelines/pipeline-config.ts';
import { runPipeline } from '../../src/pipelines/run-pipeline.ts';
import { generatedDocuments, homeFor, landInRuns, shuffled, type Document } from '../helpers/arrival-order.ts';
import { compareHomes } from '../helpers/compare-homes.ts';
import { rows, writeOrders } from '../helpers/home.ts';
import { orderLine, writeReturns, writeSettlement } from '../helpers/profit.ts';

const NOW = new Date('2026-10-16T18:00:00Z');
const US = {
  id: '6f1c2f0e-3b7a-4c55-9d0e-1a2b3c4d5e01',
  marketplaceId: 'ATVPDKIKX0DER',
  name: 'Acme Outdoor US',
  sellerId: 'A3ACMEUS0SELLER',
};

/** The hand-worked documents: the order, its settlement and its return, as files. */
function handDocuments(): Record<'order' | 'settlement' | 'return', Document> {
  const dir = mkdtempSync(join(tmpdir(), 'mktdata-arrival-'));
  const posted = {
    'transaction-type': 'Order',
    'order-id': 'A-1',
    sku: 'SKU-A',
    'posted-date': '2026-09-20',
    'posted-date-time': '2026-09-20T17:00:00+00:00',
    'quantity-purchased': '1',
  };
  return {
    order: {
      connection: US,
      source: 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
      file: writeOrders(dir, 'orders.tsv', [
        orderLine({
          'amazon-order-id': 'A-1',
          'purchase-date': '2026-09-05T18:00:00+00:00',
          'last-updated-date': '2026-09-05T18:00:00+00:00',
          'item-price': '20.00',
        }),
      ]),
    },
    settlement: {
      connection: US,
      source: 'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2',
      file: writeSettlement(dir, 'settlement.tsv', { id: '4001', currency: 'USD' }, [
        { ...posted, 'amount-type': 'ItemPrice', 'amount-description': 'Principal', amount: '20.00' },
        { ...posted, 'amount-type': 'ItemFees', 'amount-description': 'Commission', amount: '-3.00' },
        { ...posted, 'amount-type': 'ItemFees', 'amount-description': 'FBAPerUnitFulfillmentFee', amount: '-4.50' },
      ]),
    },
    return: {
      connection: US,
      source: 'GET_FBA_FULFILLMENT_CUSTOMER_RETURNS_DATA',
      file: writeReturns(dir, 'returns.tsv', [
        {
          'return-date': '2026-09-25T16:00:00+00:00',
          'order-id': 'A-1',
          sku: 'SKU-A',
          asin: 'B000000001',
          quantity: '1',
          'detailed-disposition': 'SELLABLE',
        },
      ]),
    },
  };
}

describe('the same documents in another order', () => {
  const homes: Warehouse[] = [];
  afterEach(async () => {
    for (const wh of homes.splice(0)) await wh.close();
  });
  const home = async (documents: Document[]) => {
    const wh = await homeFor(documents, 'mktdata-arrival-');
    homes.push(wh);
    return wh;
  };

  it('moves a settlement landed before its order to the order date, once, and dates the return by its order', async () => {
    const d = handDocuments();
    const all = [d.order, d.settlement, d.return];
    const late = await home(all);
    // Settlement and return into a fresh home before any orders report: every run succeeds.
    const runs = await landInRuns(late, [[d.settlement, d.return], [d.order]], NOW);
    expect(
      runs
        .flat()
        .filter((s) => s.status !== 'success')
        .map((s) => `${s.pipeline}: ${s.windows.find((w) => w.error)?.error}`),
    ).toEqual([]);
    const events = await rows(
      late,
      `select date::varchar as date, date_basis from marts.mkt_settlements_with_cogs where seller_or_vendor_id = $c`,
      { c: US.id },
    );
    expect(events).toEqual([{ date: '2026-09-05', date_basis: 'order' }]);
    const fees = await rows(
      late,
      `select date::varchar as date, total_fees::varchar as fees from marts.mkt_profit_by_date where seller_or_vendor_id = $c and total_fees <> 0`,
      { c: US.id },
    );
    expect(fees).toEqual([{ date: '2026-09-05', fees: '7.5000' }]);
    expect(await rows(late, `select order_date::varchar as order_date from marts.mkt_returns`)).toEqual([
      { order_date: '2026-09-05' },
    ]);

    const once = await home(all);
    await landInRuns(once, [all], NOW);
    expect((await compareHomes(once.home, late.home)).filter((t) => t.onlyA || t.onlyB || t.duplicates)).toEqual([]);
  });

  it('fails a run that would leave a repeated key, naming it', async () => {
    const d = handDocuments();
    const wh = await home([d.order, d.settlement]);
    await landInRuns(wh, [[d.order, d.settlement]], NOW);
    // The event's row copied to another date, as a run that left a moved row behind would.
    await wh.sql.run(
      `insert into marts.mkt_settlements_with_cogs select * replace (date '2026-09-20' as date) from marts.mkt_settlements_with_cogs`,
    );
    const [event] = await rows(wh, `select settlement_event_id from marts.mkt_settlements_with_cogs limit 1`);
    const profit = loadPipelines().find((p) => p.name === 'profit')!;
    const run = await runPipeline(wh, profit, { now: NOW, backfill: { from: '2026-09-05', to: '2026-09-05' } });
    const failed = run.windows.find((w) => w.table === 'mkt_settlements_with_cogs' && w.status === 'error');
    expect(failed?.error).toContain(
      `unique (seller_or_vendor_id, settlement_event_id) (1 bad rows: ${US.id} / ${event!.settlement_event_id})`,
    );
    expect(run.status).not.toBe('success');
  });

  // A generated set with every source of the profit pipeline, overlapping windows; seeds 1-3, cut into 3, 4 and 2
  // runs (`npm run bench -- arrival` runs 50 seeds of a larger set).
  const generated = { documents: [] as Document[], once: undefined as Warehouse | undefined };
  afterAll(async () => generated.once?.close());
  it.each([1, 2, 3])(
    'gives the tables of one run with seed %i (random order, random runs)',
    async (seed) => {
      if (!generated.once) {
        generated.documents = generatedDocuments(mkdtempSync(join(tmpdir(), 'mktdata-generated-')), NOW, 14);
        generated.once = await homeFor(generated.documents, 'mktdata-arrival-');
        await landInRuns(generated.once, [generated.documents], NOW);
      }
      const runs = shuffled(generated.documents, seed, 2 + (seed % 3));
      const spread = await home(generated.documents);
      await landInRuns(spread, runs, NOW);
      const tables = await compareHomes(generated.once.home, spread.home);
      expect(tables.find((t) => t.table === 'mkt_profit_by_sku_and_date')!.rows).toBeGreaterThan(0);
      expect(
        tables.filter((t) => t.onlyA || t.onlyB || t.duplicates),
        `seed ${seed}: ${runs.map((r) => r.length).join('+')} documents`,
      ).toEqual([]);
    },
  );
});
