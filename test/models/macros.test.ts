import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { ensureRawTables } from '../../src/ingest/ensure-raw-tables.ts';
import { runModels } from '../../src/models/run-models.ts';
import { makeHome, rows, US } from '../helpers/home.ts';

const model = 'staging.stg_ads__sp_targeting';

/** Rows of raw.ads_sp_targeting for US: one key per (date, campaign, ad group, keyword, targeting), its clicks. */
async function land(
  wh: Warehouse,
  file: string,
  landedAt: string,
  lines: { date: string; keyword: string; clicks: number }[],
) {
  for (const [i, l] of lines.entries()) {
    await wh.sql.run(
      `insert into raw.ads_sp_targeting by name
       select $date::date as date, 'C1' as campaign_id, 'G1' as ad_group_id, $keyword as keyword_id, 'kw' as targeting, $clicks::bigint as clicks,
              $file as _file_id, $line::bigint as _line_number, $landedAt::timestamptz as _landed_at, $connection as _connection_id, $marketplace as _marketplace_id`,
      {
        date: l.date,
        keyword: l.keyword,
        clicks: String(l.clicks),
        file,
        line: String(i + 2),
        landedAt,
        connection: US.id,
        marketplace: US.marketplaceId,
      },
    );
  }
}

const clicks = (wh: Warehouse) =>
  rows(wh, `select date::varchar as date, keyword_id, clicks::int as clicks from ${model} order by date, keyword_id`);

describe('models/macros.sql', () => {
  let wh: Warehouse;
  beforeEach(async () => {
    ({ wh } = await makeHome());
    await ensureRawTables(wh.sql);
  });
  afterEach(async () => wh.close());

  it('latest_landed keeps the latest landed row of each key, in a whole build and in a keyed run of new files', async () => {
    await land(wh, 'f1', '2026-10-02T10:00:00Z', [
      { date: '2026-10-01', keyword: 'K1', clicks: 5 },
      { date: '2026-10-02', keyword: 'K1', clicks: 7 },
      { date: '2026-10-03', keyword: 'K1', clicks: 3 },
      { date: '2026-10-04', keyword: 'K1', clicks: 4 },
    ]);
    await land(wh, 'f2', '2026-10-02T11:00:00Z', [{ date: '2026-10-01', keyword: 'K1', clicks: 6 }]);
    const whole = await runModels(wh, { select: [model], upstream: false, fullRefresh: true });
    expect(whole.map((r) => r.status)).toEqual(['success']);
    // 2026-10-01: f2 (landed later) wins over f1; the other dates only in f1, and no later file touches them.
    const onlyInF1 = [
      { date: '2026-10-02', keyword_id: 'K1', clicks: 7 },
      { date: '2026-10-03', keyword_id: 'K1', clicks: 3 },
      { date: '2026-10-04', keyword_id: 'K1', clicks: 4 },
    ];
    expect(await clicks(wh)).toEqual([{ date: '2026-10-01', keyword_id: 'K1', clicks: 6 }, ...onlyInF1]);

    // A re-pull of 2026-10-01 with the key twice (the later line wins) and a new keyword; the other dates are not in
    // it. Its one key (connection, date) is fewer than half the model's four rows: the run is keyed, not whole.
    await land(wh, 'f3', '2026-10-03T09:00:00Z', [
      { date: '2026-10-01', keyword: 'K1', clicks: 9 },
      { date: '2026-10-01', keyword: 'K1', clicks: 10 },
      { date: '2026-10-01', keyword: 'K2', clicks: 1 },
    ]);
    const keyed = await runModels(wh, {
      work: { windows: new Map(), whole: new Set(), keyed: new Set([model]), newFiles: ['f3'] },
    });
    expect(keyed.map((r) => r.status)).toEqual(['success']);
    expect(await clicks(wh)).toEqual([
      { date: '2026-10-01', keyword_id: 'K1', clicks: 10 },
      { date: '2026-10-01', keyword_id: 'K2', clicks: 1 },
      ...onlyInF1,
    ]);
  });

  it('a keyed run whose new rows fail a check changes nothing', async () => {
    const day = (date: string, clicks: number) => ({ date, keyword: 'K1', clicks });
    await land(wh, 'f1', '2026-10-02T10:00:00Z', [
      day('2026-10-01', 5),
      day('2026-10-02', 7),
      day('2026-10-03', 3),
      day('2026-10-04', 4),
    ]);
    expect((await runModels(wh, { select: [model], upstream: false, fullRefresh: true })).map((r) => r.status)).toEqual(
      ['success'],
    );
    const before = await clicks(wh);
    // f2 re-pulls 2026-10-01 (8 clicks) and brings a row without a date: the model's not_null check on date fails, so
    // the run rolls back and 2026-10-01 keeps its 5 clicks.
    await land(wh, 'f2', '2026-10-03T10:00:00Z', [
      day('2026-10-01', 8),
      { date: null as unknown as string, keyword: 'K1', clicks: 1 },
    ]);
    const failed = await runModels(wh, {
      work: { windows: new Map(), whole: new Set(), keyed: new Set([model]), newFiles: ['f2'] },
    });
    expect(failed.map((r) => r.status)).toEqual(['error']);
    expect(failed[0]!.findings.map((f) => f.badRows)).toEqual([1]);
    expect(await clicks(wh)).toEqual(before);
  });

  it('a keyed run of more keys than it lists as literals replaces exactly those keys', async () => {
    // f1: 2,500 dates from 2020-01-01, keyword K1, 1 click each. f2 re-pulls the first 1,100 dates with 2 clicks:
    // 1,100 keys, more than the 1,000 a keyed run lists, and fewer than half the 2,500 rows, so the run is keyed.
    const landRange = (file: string, landedAt: string, days: number, clicks: number) =>
      wh.sql.run(
        `insert into raw.ads_sp_targeting by name
         select date '2020-01-01' + i::integer as date, 'C1' as campaign_id, 'G1' as ad_group_id, 'K1' as keyword_id, 'kw' as targeting, $clicks::bigint as clicks,
                $file as _file_id, i + 2 as _line_number, $landedAt::timestamptz as _landed_at, $connection as _connection_id, $marketplace as _marketplace_id
         from range($days::bigint) as t(i)`,
        {
          file,
          landedAt,
          days: String(days),
          clicks: String(clicks),
          connection: US.id,
          marketplace: US.marketplaceId,
        },
      );
    await landRange('f1', '2026-10-02T10:00:00Z', 2500, 1);
    expect((await runModels(wh, { select: [model], upstream: false, fullRefresh: true })).map((r) => r.status)).toEqual(
      ['success'],
    );
    await landRange('f2', '2026-10-03T10:00:00Z', 1100, 2);
    const keyed = await runModels(wh, {
      work: { windows: new Map(), whole: new Set(), keyed: new Set([model]), newFiles: ['f2'] },
    });
    expect(keyed.map((r) => r.status)).toEqual(['success']);
    // 2020-01-01 + 1,099 days = 2023-01-04, the last date f2 brings; 2023-01-05 is f1's first date left.
    // Clicks: 1,100 × 2 + 1,400 × 1 = 3,600 on 2,500 rows.
    expect(
      await rows(
        wh,
        `select count(*)::int as n, sum(clicks)::int as clicks, max(date) filter (where clicks = 2)::varchar as last_f2, min(date) filter (where clicks = 1)::varchar as first_f1 from ${model}`,
      ),
    ).toEqual([{ n: 2500, clicks: 3600, last_f2: '2023-01-04', first_f1: '2023-01-05' }]);
  });

  it('latest_version keeps the greatest updated_at of each record, then the latest landing, with its first and last landing', async () => {
    const landOrder = (file: string, landedAt: string, orderId: string, status: string, updatedAt: string | null) =>
      wh.sql.run(
        `insert into raw.awd_list_outbounds by name
         select $orderId as order_id, $status as order_status, $updatedAt::timestamptz as updated_at,
                $file as _file_id, 1::bigint as _line_number, $landedAt::timestamptz as _landed_at, $connection as _connection_id, $marketplace as _marketplace_id`,
        { orderId, status, updatedAt, file, landedAt, connection: US.id, marketplace: US.marketplaceId },
      );
    // O1: f2 lands after f1 with an older update and loses to it; f3 repeats f1's update and, landed later, wins.
    // Seen first in f1 and last in f3.
    await landOrder('f1', '2026-10-01T12:00:00Z', 'O1', 'CONFIRMED', '2026-10-01T10:00:00Z');
    await landOrder('f2', '2026-10-02T12:00:00Z', 'O1', 'DRAFT', '2026-10-01T09:00:00Z');
    await landOrder('f3', '2026-10-03T12:00:00Z', 'O1', 'CONFIRMED', '2026-10-01T10:00:00Z');
    // O2: the same update in two files: the later landing (f3) wins.
    await landOrder('f2', '2026-10-02T12:00:00Z', 'O2', 'DRAFT', '2026-10-02T08:00:00Z');
    await landOrder('f3', '2026-10-03T12:00:00Z', 'O2', 'ELIGIBLE', '2026-10-02T08:00:00Z');
    const built = await runModels(wh, {
      select: ['staging.stg_mkt__awd_outbound_orders'],
      upstream: false,
      fullRefresh: true,
    });
    expect(built.map((r) => r.status)).toEqual(['success']);
    expect(
      await rows(
        wh,
        `select order_id, order_status, file_id, first_seen_at::varchar as first_seen, last_seen_at::varchar as last_seen
                           from staging.stg_mkt__awd_outbound_orders order by order_id`,
      ),
    ).toEqual([
      {
        order_id: 'O1',
        order_status: 'CONFIRMED',
        file_id: 'f3',
        first_seen: '2026-10-01 12:00:00+00',
        last_seen: '2026-10-03 12:00:00+00',
      },
      {
        order_id: 'O2',
        order_status: 'ELIGIBLE',
        file_id: 'f3',
        first_seen: '2026-10-02 12:00:00+00',
        last_seen: '2026-10-03 12:00:00+00',
      },
    ]);
  });
});

describe('a broken models/macros.sql', () => {
  it("stops the build with an error naming the file and DuckDB's reason, before any model runs", async () => {
    const { mkdtempSync, writeFileSync, cpSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const { modelsDir } = await import('../../src/lib/project-paths.ts');
    const { wh } = await makeHome();
    try {
      const dir = mkdtempSync(join(tmpdir(), 'models-'));
      cpSync(modelsDir, dir, { recursive: true });
      writeFileSync(join(dir, 'macros.sql'), 'create or replace macro broken(x) as tabel select x;\n');
      await expect(runModels(wh, { modelsDir: dir, select: ['seeds.marketplaces'], upstream: false })).rejects.toThrow(
        /^models\/macros\.sql: Parser Error: syntax error at or near "select"/,
      );
      // Nothing was built.
      expect(await rows(wh, `select table_name from information_schema.tables where table_schema = 'seeds'`)).toEqual(
        [],
      );
    } finally {
      await wh.close();
    }
  });
});
