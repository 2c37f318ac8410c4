// A first load's history phase can land a newer document of a source that a first-stage table was built from: here
// mkt_listings_raw finished its first load on day one while mkt_listings_with_cogs lacked a source, so on day two the
// first stage asks for the All Listings report for mkt_listings_with_cogs and the history asks for it again for
// mkt_listings_raw. The same run rebuilds mkt_listings_with_cogs from the history's newer report, rather than leaving
// it as the first stage built it before that report landed.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { landDocuments } from '../../src/ingest/landing.ts';
import type { FetchGap, RunFetcher } from '../../src/pipelines/fetch/fetch-stage.ts';
import { findPipeline, loadPipelines } from '../../src/pipelines/pipeline-config.ts';
import { runPipeline } from '../../src/pipelines/run-pipeline.ts';
import { demoFixtures } from '../helpers/demo-fixtures.ts';
import { makeHome, US } from '../helpers/home.ts';

const DAY_ONE = new Date('2026-10-16T18:00:00Z');
const DAY_TWO = new Date('2026-10-17T18:00:00Z');
const SOURCE = 'GET_MERCHANT_LISTINGS_ALL_DATA';
const SKU = 'ACM-BAG-0F-REG';

describe('a first-stage table and the history of the same run', () => {
  let wh: Warehouse | undefined;
  afterEach(async () => wh?.close());

  it('is rebuilt from a newer document of its source that the history landed', async () => {
    ({ wh } = await makeHome());
    const listings = findPipeline(loadPipelines(), 'listings');
    // The demo's US listings report lists the SKU at 142.45; the history's report of day two at 123.45.
    const report = readFileSync(join(demoFixtures, 'us', SOURCE, 'listings-2026-10-16.tsv'), 'utf8');
    expect(report).toContain(`${SKU}\t142.45\t`);
    const dir = mkdtempSync(join(tmpdir(), 'mktdata-late-'));
    const reports = [report, report, report.replace(`${SKU}\t142.45\t`, `${SKU}\t123.45\t`)];
    // A fetcher that brings the next report at each fetch (US only), and on day one says the removal orders that
    // only mkt_listings_with_cogs reads did not come.
    const fetches: { first: boolean; tables: string[] }[] = [];
    const fetcher = (now: Date, gaps: FetchGap[]): RunFetcher => ({
      now: () => now,
      async fetch(home, phase) {
        fetches.push({ first: phase.first, tables: [...new Set(phase.windows.map((w) => w.table))].sort() });
        await phase.landAfter;
        const file = join(dir, `report-${fetches.length}.tsv`);
        writeFileSync(file, reports[fetches.length - 1]!);
        const landed = await landDocuments(home, [{ connection: US, source: SOURCE, file }]);
        return { landed, failed: 0, gaps: phase.first ? gaps : [] };
      },
    });
    const lacking: FetchGap = {
      connectionId: US.id,
      source: 'GET_FBA_FULFILLMENT_REMOVAL_ORDER_DETAIL_DATA',
      from: null,
      to: null,
      reason: 'not fetched yet',
    };
    await runPipeline(wh, listings, { now: DAY_ONE, fetcher: fetcher(DAY_ONE, [lacking]) });
    await runPipeline(wh, listings, { now: DAY_TWO, fetcher: fetcher(DAY_TWO, []) });
    // Day one: one fetch; day two: the first stage's, then the history's for mkt_listings_raw.
    expect(fetches.map((f) => f.first)).toEqual([true, true, false]);
    expect(fetches[1]!.tables).toContain('mkt_listings_with_cogs');
    expect(fetches[2]!.tables).toEqual(expect.arrayContaining(['mkt_listings_raw']));
    expect(fetches[2]!.tables).not.toContain('mkt_listings_with_cogs');
    const read = async (query: string) => (await wh!.sql.runAndReadAll(query)).getRowsJson();
    expect(
      await read(`select listing_price_value::varchar from marts.mkt_listings_with_cogs
                  where seller_or_vendor_id = '${US.id}' and sku = '${SKU}'`),
    ).toEqual([['123.4500']]);
  });
});
