import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { addConnection } from '../../src/control/connections/connections.ts';
import { createOrganization } from '../../src/control/organizations.ts';
import { openWarehouse, type Warehouse } from '../../src/db/warehouse.ts';
import { fetchSpecs } from '../../src/pipelines/fetch/fetch-specs.ts';
import { upstreamRequest } from '../../src/pipelines/fetch/upstream-request.ts';
import { cogsCsv, fakeData, Rng, demoSellers } from '@mktdata/fake-marketplace';
import { addDays, localDate } from '../../src/time/zone.ts';
import { resolveHome } from '../../src/home.ts';
import { loadPipelines } from '../../src/pipelines/pipeline-config.ts';
import { publishDeferred, runPipeline, type RunSummary } from '../../src/pipelines/run-pipeline.ts';
import { demoFixtures } from './demo-fixtures.ts';

/** A document to land: a file of one source for one connection. */
export interface Document {
  connection: { id: string; marketplaceId: string; name: string; sellerId: string };
  source: string;
  file: string;
}

/** Every bundled demo document (fixtures/demo): 84 files of two connections, unit costs and promotions among them. */
export function demoDocuments(): Document[] {
  const connections = JSON.parse(
    readFileSync(join(demoFixtures, 'connections.json'), 'utf8'),
  ) as (Document['connection'] & { key: string })[];
  return connections.flatMap((c) => {
    const folder = join(demoFixtures, c.key);
    const connection = { id: c.id, marketplaceId: c.marketplaceId, name: c.name, sellerId: c.sellerId };
    const bySource = readdirSync(folder, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) =>
        readdirSync(join(folder, d.name))
          .sort()
          .map((file) => ({ connection, source: d.name, file: join(folder, d.name, file) })),
      );
    return [...bySource, { connection, source: 'cogs', file: join(folder, 'cogs.csv') }];
  });
}

/** A new home with the documents' connections (one organization). */
export async function homeFor(documents: Document[], prefix: string): Promise<Warehouse> {
  const home = resolveHome(join(mkdtempSync(join(tmpdir(), prefix)), 'home'));
  const wh = await openWarehouse(home, 'test', { create: true });
  const organizationId = await createOrganization(wh, { name: 'Arrival order', tokens: null });
  const seen = new Set<string>();
  for (const { connection: c } of documents) {
    if (seen.has(c.id)) continue;
    seen.add(c.id);
    await addConnection(wh, {
      organizationId,
      id: c.id,
      name: c.name,
      marketplaceId: c.marketplaceId,
      sellerId: c.sellerId,
    });
  }
  return wh;
}

/**
 * Lands the documents in runs, as a seller dropping them by hand and `mktdata run` after each drop would: each run
 * drops its documents in landing/, runs every pipeline at `now`, and publishes once. Returns the runs' summaries.
 */
export async function landInRuns(wh: Warehouse, runs: Document[][], now: Date): Promise<RunSummary[][]> {
  const pipelines = loadPipelines();
  const out: RunSummary[][] = [];
  for (const documents of runs) {
    for (const d of documents) {
      const folder = join(wh.home.landing, d.connection.id, d.source);
      mkdirSync(folder, { recursive: true });
      const target = join(folder, basename(d.file));
      if (existsSync(target)) throw new Error(`two documents named ${target}`);
      copyFileSync(d.file, target);
    }
    const summaries: RunSummary[] = [];
    for (const pipeline of pipelines) summaries.push(await runPipeline(wh, pipeline, { now, deferPublish: true }));
    await publishDeferred(wh, summaries);
    out.push(summaries);
  }
  return out;
}

/** The documents in a seeded random order, cut into `runs` random parts (none empty). */
export function shuffled(documents: Document[], seed: number, runs: number): Document[][] {
  const rng = new Rng(seed);
  const order = [...documents];
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const cuts = new Set<number>();
  while (cuts.size < Math.min(runs, order.length) - 1) cuts.add(rng.int(1, order.length - 1));
  const bounds = [0, ...[...cuts].sort((a, b) => a - b), order.length];
  return bounds.slice(1).map((end, i) => order.slice(bounds[i], end));
}

/** The profit pipeline's fetched sources, and the window (days) and overlap each generated document of it covers. */
const generatedSources: Record<string, { days: number; overlap: number }> = {
  GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL: { days: 8, overlap: 3 },
  GET_FBA_FULFILLMENT_CUSTOMER_RETURNS_DATA: { days: 10, overlap: 4 },
  GET_SALES_AND_TRAFFIC_REPORT: { days: 1, overlap: 0 },
  'ads.spAdvertisedProduct': { days: 6, overlap: 2 },
  'ads.spTargeting': { days: 6, overlap: 2 },
  'ads.spSearchTerm': { days: 6, overlap: 2 },
  'ads.sdAdvertisedProduct': { days: 7, overlap: 3 },
  'ads.sbCampaigns': { days: 7, overlap: 3 },
  'ads.sbPurchasedProduct': { days: 7, overlap: 3 },
  'ads.stCampaigns': { days: 9, overlap: 2 },
  'ads.dspCampaign': { days: 9, overlap: 2 },
};

/**
 * A generated document set with every source of the profit pipeline: the demo US seller's documents from the fake
 * marketplace's data library for `days` days ending the day before `asOf`, all as of that instant (overlapping
 * windows agree), each source's windows overlapping the next by a few days; every settlement closed by then, and
 * the seller's unit costs. Written under `dir`.
 */
export function generatedDocuments(dir: string, asOf: Date, days: number): Document[] {
  const seller = demoSellers(addDays(localDate(asOf.getTime(), 'America/Los_Angeles'), -days - 30))[0]!;
  const connection = {
    id: '6f1c2f0e-3b7a-4c55-9d0e-1a2b3c4d5e01',
    marketplaceId: seller.marketplaceId,
    name: seller.name,
    sellerId: seller.sellerId,
  };
  const timezone = seller.timezone;
  const last = addDays(localDate(asOf.getTime(), timezone), -1);
  const first = addDays(last, 1 - days);
  const documents: Document[] = [];
  const write = (source: string, name: string, body: Buffer | string) => {
    mkdirSync(join(dir, source), { recursive: true });
    const file = join(dir, source, name);
    writeFileSync(file, body);
    documents.push({ connection, source, file });
  };
  for (const [source, { days: span, overlap }] of Object.entries(generatedSources)) {
    const spec = fetchSpecs.get(source)!;
    for (let from = first; from <= last; from = addDays(from, span - overlap)) {
      const to = addDays(from, span - 1) > last ? last : addDays(from, span - 1);
      const request = upstreamRequest(
        spec,
        { connectionId: connection.id, source, stage: null, from, to },
        { marketplaceId: seller.marketplaceId, timezone },
        asOf.getTime(),
      );
      if (request.kind === 'ads-report') {
        const rows = fakeData.adsReport(seller, {
          ...request.body.configuration,
          filters: [],
          startDate: from,
          endDate: to,
          asOf: asOf.getTime(),
        });
        write(source, `${source}-${from}_${to}.json`, JSON.stringify(rows));
      } else if (request.kind === 'report') {
        const { body } = request;
        const document = fakeData.report(seller, {
          reportType: body.reportType,
          dataStartTime: body.dataStartTime!,
          dataEndTime: body.dataEndTime!,
          reportOptions: body.reportOptions ?? {},
          asOf: asOf.getTime(),
        });
        if (document)
          write(
            source,
            `${source}-${from}_${to}${document.contentType.includes('json') ? '.json' : '.tsv'}`,
            document.body,
          );
      }
      if (to === last) break;
    }
  }
  for (const settlement of fakeData.settlements(seller, asOf.getTime()))
    write(
      'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2',
      `settlement-${settlement.settlementId}.tsv`,
      settlement.document().body,
    );
  write('cogs', 'cogs.csv', cogsCsv(seller));
  return documents;
}
