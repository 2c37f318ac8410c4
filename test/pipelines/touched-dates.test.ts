import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addConnection } from '../../src/control/connections/connections.ts';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { newFiles, touchedDates } from '../../src/pipelines/new-files.ts';
import { findPipeline, loadPipelines } from '../../src/pipelines/pipeline-config.ts';
import { planConnections } from '../../src/pipelines/run-history.ts';
import { runModels } from '../../src/models/run-models.ts';
import { makeHome } from '../helpers/home.ts';
import { landOk, landOrders, orderLine, writeSettlement, type SettlementLine } from '../helpers/profit.ts';
import { pipelinesDir } from '../../src/lib/project-paths.ts';

// amazon.in: Asia/Kolkata, UTC+05:30 all year. Local midnight of 2026-10-06 is 2026-10-05 18:30 UTC.
const IN = { id: '00000000-0000-4000-8000-0000000000a1', marketplaceId: 'A21TJRUUN4KGV' };

describe('the profit pipeline touchedDates', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => {
    ({ wh, dir } = await makeHome());
    const organizationId = (await wh.db.selectFrom('control.organizations').select('id').executeTakeFirstOrThrow()).id;
    await addConnection(wh, { organizationId, id: IN.id, name: 'Test IN', marketplaceId: IN.marketplaceId });
  });
  afterEach(async () => wh.close());

  it('gives the local date of every version of the orders a new file brings, on both sides of a half-hour offset midnight', async () => {
    const pipeline = findPipeline(loadPipelines(), 'profit');
    // First versions: order A one second before local midnight (23:59:59 on 10-05), B at local midnight (00:00 on
    // 10-06), C on 10-01 at 10:00 UTC (15:30 local), whose later version moves it to 10-03 (12:00 UTC, 17:30 local).
    await landOrders(wh, dir, IN, [
      orderLine({ 'amazon-order-id': 'A', 'purchase-date': '2026-10-05T18:29:59+00:00', 'order-status': 'Pending' }),
      orderLine({ 'amazon-order-id': 'B', 'purchase-date': '2026-10-05T18:30:00+00:00', 'order-status': 'Pending' }),
      orderLine({ 'amazon-order-id': 'C', 'purchase-date': '2026-10-01T10:00:00+00:00', 'order-status': 'Pending' }),
      orderLine({ 'amazon-order-id': 'D', 'purchase-date': '2026-09-20T10:00:00+00:00' }),
    ]);
    await wh.sql.run(`insert into control.pipeline_files select 'profit', id, 'earlier run' from control.landed_files`);
    await landOrders(wh, dir, IN, [
      orderLine({ 'amazon-order-id': 'A', 'purchase-date': '2026-10-05T18:29:59+00:00' }),
      orderLine({ 'amazon-order-id': 'B', 'purchase-date': '2026-10-05T18:30:00+00:00' }),
      orderLine({ 'amazon-order-id': 'C', 'purchase-date': '2026-10-03T12:00:00+00:00' }),
    ]);
    const touched = await touchedDates(wh, pipeline, await newFiles(wh, pipeline), await planConnections(wh));
    // A: 10-05; B: 10-06; C: 10-01 (its first version) and 10-03; D is in no new file.
    expect(touched.get(IN.id)?.get('mkt_order_items_with_cogs')).toEqual([
      { from: '2026-10-01', to: '2026-10-01' },
      { from: '2026-10-03', to: '2026-10-03' },
      { from: '2026-10-05', to: '2026-10-06' },
    ]);
  });

  // C on 10-01 (15:30 local), then on 10-02 (15:30 local), which the model takes in; E on 10-04 stays as it was. Then
  // C's third version on 10-03 (17:30 local), and E again, unchanged.
  async function landThirdVersion(before?: () => Promise<void>) {
    await landOrders(wh, dir, IN, [
      orderLine({ 'amazon-order-id': 'C', 'purchase-date': '2026-10-01T10:00:00+00:00', 'order-status': 'Pending' }),
    ]);
    await landOrders(wh, dir, IN, [
      orderLine({ 'amazon-order-id': 'C', 'purchase-date': '2026-10-02T10:00:00+00:00', 'order-status': 'Pending' }),
      orderLine({ 'amazon-order-id': 'E', 'purchase-date': '2026-10-04T10:00:00+00:00' }),
    ]);
    expect(
      (await runModels(wh, { select: ['staging.stg_mkt__order_items'], upstream: false, fullRefresh: true })).map(
        (r) => r.status,
      ),
    ).toEqual(['success']);
    await wh.sql.run(`insert into control.pipeline_files select 'profit', id, 'earlier run' from control.landed_files`);
    await before?.();
    await landOrders(wh, dir, IN, [
      orderLine({ 'amazon-order-id': 'C', 'purchase-date': '2026-10-03T12:00:00+00:00' }),
      orderLine({ 'amazon-order-id': 'E', 'purchase-date': '2026-10-04T10:00:00+00:00' }),
    ]);
  }
  const ordersTouched = async () => {
    const pipeline = findPipeline(loadPipelines(), 'profit');
    return (await touchedDates(wh, pipeline, await newFiles(wh, pipeline), await planConnections(wh)))
      .get(IN.id)
      ?.get('mkt_order_items_with_cogs');
  };

  // With the model built, an order's dates are those of its new lines and of the lines the model holds for it (the
  // marts show those): a version no line is held from any more shows nowhere, and its date is not rebuilt.
  it('gives the dates of the new lines and of the lines the model holds, not those of versions it replaced', async () => {
    await landThirdVersion();
    // C: 10-02 (the line held) and 10-03 (the new one), not 10-01; E is not changed.
    expect(await ordersTouched()).toEqual([{ from: '2026-10-02', to: '2026-10-03' }]);
    // Once the model has taken the third version in, it holds C on 10-03: the same files now touch that date only.
    expect(
      (await runModels(wh, { select: ['staging.stg_mkt__order_items'], upstream: false, fullRefresh: true })).map(
        (r) => r.status,
      ),
    ).toEqual(['success']);
    expect(await ordersTouched()).toEqual([{ from: '2026-10-03', to: '2026-10-03' }]);
  });

  it("gives the dates of every version when the model's table, built by an earlier version of it, lacks its columns", async () => {
    await landThirdVersion(() =>
      wh.sql
        .run(`alter table staging.stg_mkt__order_items rename column purchased_at to bought_at`)
        .then(() => undefined),
    );
    expect(await ordersTouched()).toEqual([{ from: '2026-10-01', to: '2026-10-03' }]);
  });

  // A settlement touches its posting dates and its orders' dates. The orders are looked up among the versions bought in
  // the 92 days before the first posting (2026-10-08 - 92 days = 07-08); then, for an order with a version there,
  // among the versions on an earlier date landed since; for one without, in the whole history.
  it("gives a settlement's posting date and its orders' dates: recent, moved back since, or found in the whole history", async () => {
    const landedDaysAgo = async (days: number, lines: Parameters<typeof orderLine>[0][]) => {
      await landOrders(wh, dir, IN, lines.map(orderLine));
      const since = `(select max(landed_at) from control.landed_files)`;
      await wh.sql.run(
        `update raw.get_flat_file_all_orders_data_by_order_date_general set _landed_at = _landed_at - interval ${days} day where _landed_at = ${since}`,
      );
      await wh.sql.run(
        `update control.landed_files set landed_at = landed_at - interval ${days} day where landed_at = ${since}`,
      );
    };
    // O on 05-01, landed 200 days ago only; M on 09-20, landed 10 days ago, then moved back to 04-20, landed now;
    // R on 10-01 (15:30 local), landed now. X is in no orders file.
    await landedDaysAgo(200, [{ 'amazon-order-id': 'O', 'purchase-date': '2026-05-01T10:00:00+00:00' }]);
    await landedDaysAgo(10, [{ 'amazon-order-id': 'M', 'purchase-date': '2026-09-20T10:00:00+00:00' }]);
    await landedDaysAgo(0, [
      { 'amazon-order-id': 'M', 'purchase-date': '2026-04-20T10:00:00+00:00' },
      { 'amazon-order-id': 'R', 'purchase-date': '2026-10-01T10:00:00+00:00' },
    ]);
    await wh.sql.run(`insert into control.pipeline_files select 'profit', id, 'earlier run' from control.landed_files`);
    const line = (order: string): SettlementLine => ({
      'transaction-type': 'Order',
      'order-id': order,
      'posted-date-time': '2026-10-08 06:00:00 UTC',
      sku: 'SKU-A',
      'amount-type': 'ItemPrice',
      'amount-description': 'Principal',
      amount: '1.00',
    });
    await landOk(
      wh,
      'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2',
      IN,
      writeSettlement(dir, 'settlement-5001.tsv', { id: '5001', currency: 'INR' }, ['R', 'O', 'M', 'X'].map(line)),
    );
    const pipeline = findPipeline(loadPipelines(), 'profit');
    const touched = await touchedDates(wh, pipeline, await newFiles(wh, pipeline), await planConnections(wh));
    // M: 04-20 (moved back since its recent version) and 09-20; O: 05-01, from the whole history; R: 10-01; the
    // posting: 11:30 local on 10-08. X adds nothing.
    expect(touched.get(IN.id)?.get('mkt_settlements_with_cogs')).toEqual([
      { from: '2026-04-20', to: '2026-04-20' },
      { from: '2026-05-01', to: '2026-05-01' },
      { from: '2026-09-20', to: '2026-09-20' },
      { from: '2026-10-01', to: '2026-10-01' },
      { from: '2026-10-08', to: '2026-10-08' },
    ]);
  });

  it('are refused at load when changedKeysOf names a model that is not keyed, or goes without touchedDates', () => {
    const edited = (file: string, from: string, to: string) => {
      const dir = mkdtempSync(join(tmpdir(), 'mktdata-pipelines-'));
      for (const name of ['profit', 'awd']) copyFileSync(join(pipelinesDir, `${name}.yml`), join(dir, `${name}.yml`));
      const text = readFileSync(join(dir, file), 'utf8');
      expect(text).toContain(from);
      writeFileSync(join(dir, file), text.replace(from, to));
      return dir;
    };
    expect(() =>
      loadPipelines(
        edited('profit.yml', 'changedKeysOf: staging.stg_mkt__order_items', 'changedKeysOf: marts.mkt_profit_by_date'),
      ),
    ).toThrow(
      'sources.GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL.changedKeysOf: marts.mkt_profit_by_date is not a keyed model (one with `increment`)',
    );
    expect(() =>
      loadPipelines(
        edited(
          'awd.yml',
          '  awd.listOutbounds:\n',
          '  awd.listOutbounds:\n    changedKeysOf: staging.stg_mkt__order_items\n',
        ),
      ),
    ).toThrow('sources.awd.listOutbounds: changedKeysOf goes with touchedDates');
  });
});
