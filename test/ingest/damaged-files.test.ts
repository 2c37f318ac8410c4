import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { cogsCsv, demoSellers, fakeData } from '@mktdata/fake-marketplace';
import { openWarehouse } from '../../src/db/warehouse.ts';
import { resolveHome } from '../../src/home.ts';
import { cli, land, makeHome, rows, US } from '../helpers/home.ts';

const seller = demoSellers('2026-01-01')[0]!;
const asOf = Date.parse('2026-11-20T18:30:00Z');
const report = (reportType: string) =>
  fakeData.report(seller, {
    reportType,
    dataStartTime: '2026-09-01T00:00:00-07:00',
    dataEndTime: '2026-11-19T23:59:59-08:00',
    reportOptions: {},
    asOf,
  })!.body;

/** Whole documents of four sources, as the marketplace (or the seller, for unit costs) delivers them. */
const documents: { source: string; body: () => Buffer }[] = [
  {
    source: 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
    body: () => report('GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL'),
  },
  {
    source: 'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2',
    body: () => fakeData.settlements(seller, asOf)[0]!.document().body,
  },
  {
    source: 'GET_FBA_FULFILLMENT_CUSTOMER_RETURNS_DATA',
    body: () => report('GET_FBA_FULFILLMENT_CUSTOMER_RETURNS_DATA'),
  },
  { source: 'cogs', body: () => Buffer.from(cogsCsv(seller)) },
];

/** The first half of a document's lines, gzipped and flushed but never finished: a download cut at a line boundary. */
function cutGzip(body: Buffer): Buffer {
  const lines = body.toString('utf8').split('\n');
  const half = lines.slice(0, Math.ceil(lines.length / 2)).join('\n') + '\n';
  return gzipSync(half, { finishFlush: constants.Z_SYNC_FLUSH });
}

describe('a gzip file cut short', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  it.each(documents)('is refused whole, with nothing landed: $source', async ({ source, body }) => {
    const bytes = body();
    expect(bytes.toString('utf8').split('\n').length).toBeGreaterThan(6);
    const path = join(dir, `${source}.tsv.gz`);
    writeFileSync(path, cutGzip(bytes));
    const result = await land(wh, source, US, path);
    expect(result).toMatchObject({
      status: 'refused',
      reason: 'the gzip stream is cut short (unexpected end of file): the file is incomplete',
    });
    expect(await rows(wh, `select count(*)::int as n from control.landed_files`)).toEqual([{ n: 0 }]);

    // The whole file, gzipped properly, lands.
    writeFileSync(path, gzipSync(bytes));
    expect((await land(wh, source, US, path)).status).toBe('landed');
  });
});

describe('a flat file that parses but is not whole', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());
  const SETTLEMENT = 'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2';
  const settlement = () => fakeData.settlements(seller, asOf)[0]!.document().body.toString('utf8').split('\n');
  const landLines = async (source: string, lines: string[]) => {
    const path = join(dir, `${source}.tsv`);
    writeFileSync(path, lines.join('\n'));
    return land(wh, source, US, path);
  };
  const landedFiles = async () => (await rows(wh, `select count(*)::int as n from control.landed_files`))[0]!.n;

  it('refuses a settlement cut at a line boundary: its amounts fall short of its summary total', async () => {
    const lines = settlement();
    const result = await landLines(SETTLEMENT, lines.slice(0, Math.ceil(lines.length / 2)));
    // Line 2 is the summary line (line 1 the header).
    expect(result).toMatchObject({
      status: 'refused',
      line: 2,
      reason: expect.stringMatching(
        /^settlement \d+: its amounts add up to -?\d+\.\d{4}, not to the total-amount -?\d+\.\d{4} of its summary line \(the file is incomplete or damaged\)$/,
      ),
    });
    expect(await landedFiles()).toBe(0);
    expect((await landLines(SETTLEMENT, lines)).status).toBe('landed');
  });

  it('refuses a header-only settlement: a settlement report has at least its summary line', async () => {
    expect(await landLines(SETTLEMENT, [settlement()[0]!, ''])).toMatchObject({
      status: 'refused',
      reason: 'the settlement report has no lines: not even its summary line',
    });
  });

  it('refuses a line with a tab inside an unquoted field, even when only empty fields follow it', async () => {
    const lines = settlement();
    // The summary line: `total-amount` becomes `17600.98<TAB>X`, which shifts currency and every empty field after
    // it one to the right (DuckDB's strict mode alone lets the one extra empty field at the end pass).
    const fields = lines[1]!.split('\t');
    fields[4] = `${fields[4]}\tX`;
    lines[1] = fields.join('\t');
    expect(await landLines(SETTLEMENT, lines)).toMatchObject({
      status: 'refused',
      line: 2,
      reason: 'expected 24 fields as in the header, found more (a delimiter inside a field, or a malformed line)',
    });
    expect(await landedFiles()).toBe(0);
  });

  it('refuses a line with a field missing, naming it', async () => {
    const lines = report('GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL').toString('utf8').split('\n');
    lines[3] = lines[3]!.split('\t').slice(0, -1).join('\t');
    const header = lines[0]!.split('\t').length;
    expect(await landLines('GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL', lines)).toMatchObject({
      status: 'refused',
      line: 4,
      reason: `expected ${header} fields as in the header, found fewer (a truncated or malformed line)`,
    });
  });
});

describe('a JSON document with a bad record', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  it('is refused naming the record', async () => {
    const day = {
      reportType: 'GET_SALES_AND_TRAFFIC_REPORT',
      dataStartTime: '2026-11-10T00:00:00-08:00',
      dataEndTime: '2026-11-10T23:59:59-08:00',
      reportOptions: { asinGranularity: 'CHILD' },
      asOf,
    };
    const document = JSON.parse(fakeData.report(seller, day)!.body.toString('utf8'));
    expect(document.salesAndTrafficByAsin.length).toBeGreaterThan(4);
    document.salesAndTrafficByAsin[3] = 42;
    const path = join(dir, 'traffic.json');
    writeFileSync(path, JSON.stringify(document));
    expect(await land(wh, 'GET_SALES_AND_TRAFFIC_REPORT', US, path)).toMatchObject({
      status: 'refused',
      line: 4,
      reason: expect.stringMatching(/^record 4: the record: .*expected object/i),
    });
    expect(await rows(wh, `select count(*)::int as n from control.landed_files`)).toEqual([{ n: 0 }]);
  });
});

describe('hostile files the soak found', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());
  const ORDERS = 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL';

  it('lands a gzip file whose name does not say so', async () => {
    // Read as text, these gzip bytes are not refused as invalid UTF-8 (which would transcode them) but trip the CSV
    // reader: the file was refused as damaged.
    const body =
      report('GET_FBA_FULFILLMENT_REMOVAL_ORDER_DETAIL_DATA').toString('utf8').split('\n').slice(0, 3).join('\n') +
      '\n';
    const path = join(dir, 'removal-orders.tsv');
    writeFileSync(path, gzipSync(body));
    expect(await land(wh, 'GET_FBA_FULFILLMENT_REMOVAL_ORDER_DETAIL_DATA', US, path)).toMatchObject({
      status: 'landed',
      rows: 2,
    });
  });

  it('refuses JSON nested thousands of levels deep instead of overflowing the stack', async () => {
    const path = join(dir, 'nested.json');
    writeFileSync(path, `[{"date":"2026-10-01","campaignId":"1","cost":${'['.repeat(5000)}1${']'.repeat(5000)}}]`);
    expect(await land(wh, 'ads.stCampaigns', US, path)).toMatchObject({
      status: 'refused',
      line: null,
      reason: 'the JSON is nested deeper than 64 levels: no upstream document is',
    });
  });

  it('refuses a sales and traffic report whose by-date block is damaged, and offers that are not objects', async () => {
    const day = {
      reportType: 'GET_SALES_AND_TRAFFIC_REPORT',
      dataStartTime: '2026-11-10T00:00:00-08:00',
      dataEndTime: '2026-11-10T23:59:59-08:00',
      reportOptions: { asinGranularity: 'CHILD' },
      asOf,
    };
    const document = JSON.parse(fakeData.report(seller, day)!.body.toString('utf8'));
    document.salesAndTrafficByDate[0] = 42;
    writeFileSync(join(dir, 'traffic.json'), JSON.stringify(document));
    expect(await land(wh, 'GET_SALES_AND_TRAFFIC_REPORT', US, join(dir, 'traffic.json'))).toMatchObject({
      status: 'refused',
      reason: expect.stringMatching(/^not a sales and traffic report: salesAndTrafficByDate\.0: /),
    });
    writeFileSync(
      join(dir, 'offers.json'),
      JSON.stringify({ payload: { ASIN: 'B000000001', ItemCondition: 'New', Offers: [{ SellerId: 'A1' }, 42] } }),
    );
    expect(await land(wh, 'productPricing.getItemOffers', US, join(dir, 'offers.json'))).toMatchObject({
      status: 'refused',
      reason: expect.stringMatching(/^not a getItemOffers response: payload\.Offers\.1: /),
    });
  });

  it('mktdata ingest reports a file it cannot read beside the others, which still land', async () => {
    const good = join(dir, 'orders.tsv');
    writeFileSync(good, report(ORDERS));
    await wh.close();
    const result = await cli([
      'ingest',
      '--home',
      join(dir, 'home'),
      '--connection',
      US.id,
      '--source',
      ORDERS,
      join(dir, 'missing.tsv'),
      good,
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(new RegExp(`^landed +${good}: \\d+ rows`, 'm'));
    expect(result.stderr).toMatch(new RegExp(`^error +${join(dir, 'missing.tsv')}: ENOENT`, 'm'));
    wh = await openWarehouse(resolveHome(join(dir, 'home')), 'test');
  });
});
