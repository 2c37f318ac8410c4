import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { virtualClock } from '../../src/time/clock.ts';
import { endpointsUnder, type ConnectorConfig } from '../../src/connectors/config.ts';
import { Connectors } from '../../src/connectors/connectors.ts';
import { setCredentials } from '../../src/connectors/credentials.ts';
import { connectorFetcher, type FetcherOptions } from '../../src/pipelines/fetch/connector-fetcher.ts';
import type { FetchEvent } from '../../src/pipelines/fetch/execute-fetches.ts';
import { addConnection } from '../../src/control/connections/connections.ts';
import { createOrganization } from '../../src/control/organizations.ts';
import { openWarehouse, type Warehouse } from '../../src/db/warehouse.ts';
import { demoConnections } from '../../src/demo/demo-marketplace.ts';
import {
  demoSellers,
  fileClock,
  type FakeSeller,
  startFakeMarketplace,
  type FakeMarketplace,
  type FakeMarketplaceOptions,
} from '@mktdata/fake-marketplace';
import { resolveHome, type Home } from '../../src/home.ts';
import { loadPipelines } from '../../src/pipelines/pipeline-config.ts';
import { publishDeferred, runPipeline, type RunSummary } from '../../src/pipelines/run-pipeline.ts';
import { sidecarOf } from '../../src/home.ts';

/** A home with the demo organization and the two demo connections (US, DE), no credentials yet. */
export async function demoHome(prefix: string): Promise<{ home: Home; wh: Warehouse; organizationId: string }> {
  const home = resolveHome(join(mkdtempSync(join(tmpdir(), prefix)), 'home'));
  const wh = await openWarehouse(home, 'test', { create: true });
  const organizationId = await createOrganization(wh, { name: 'Live test', tokens: 100 });
  const sellers = demoSellers();
  for (const [i, c] of demoConnections.entries()) {
    await addConnection(wh, {
      organizationId,
      id: c.id,
      name: sellers[i]!.name,
      marketplaceId: sellers[i]!.marketplaceId,
      sellerId: c.sellerId,
    });
  }
  return { home, wh, organizationId };
}

/** The connector configuration of a fake marketplace's applications and endpoints. */
export function fakeConfig(fake: FakeMarketplace): ConnectorConfig {
  return {
    spApi: {
      applicationId: fake.spApp.applicationId,
      clientId: fake.spApp.clientId,
      clientSecret: fake.spApp.clientSecret,
      draftApp: false,
    },
    ads: { clientId: fake.adsApp.clientId, clientSecret: fake.adsApp.clientSecret },
    endpoints: endpointsUnder(fake.url),
    file: 'test',
  };
}

/** Gives every demo connection of the home credentials of the fake's sellers (SP-API and Ads). */
export async function connectAll(wh: Warehouse, fake: FakeMarketplace, sellers: FakeSeller[]): Promise<void> {
  for (const [i, seller] of sellers.entries()) {
    const id = demoConnections[i]!.id;
    await setCredentials(wh, id, {
      api: 'sp-api',
      refreshToken: fake.grant(seller.sellerId, 'sp-api'),
      sellingPartnerId: seller.sellerId,
    });
    if (seller.ads)
      await setCredentials(wh, id, {
        api: 'ads',
        refreshToken: fake.grant(seller.sellerId, 'ads'),
        profileId: String(seller.ads.profileId),
      });
  }
}

/**
 * A fake marketplace and the connectors (with their fetcher) pointed at it, sharing a virtual clock that starts at
 * `start`: it moves only when both wait on it (rate limits, report polls, backoff), so the documented rates take no
 * real time and a busy machine changes nothing the test sees; `clock.jump` moves it on by whole days.
 */
export async function liveMarketplace(
  options: {
    start: string;
    openedOn: string;
    onLanded?: FetcherOptions['onLanded'];
  } & Partial<FakeMarketplaceOptions>,
) {
  const clock = virtualClock(Date.parse(options.start));
  const sellers = options.sellers ?? demoSellers(options.openedOn);
  const fake = await startFakeMarketplace({ recordExchanges: true, ...options, sellers, clock });
  const connectors = new Connectors(fakeConfig(fake), clock);
  const events: FetchEvent[] = [];
  const fetcher = connectorFetcher(connectors, { onFetched: (e) => events.push(e), onLanded: options.onLanded });
  return { clock, sellers, fake, connectors, fetcher, events };
}

/** Every document a home has landed (its `landed/` archive), without the sidecars, by relative path. */
export function landedDocuments(home: Home): string[] {
  const root = join(home.root, 'landed');
  if (!existsSync(root)) return [];
  const out: string[] = [];
  for (const connection of readdirSync(root)) {
    for (const source of readdirSync(join(root, connection))) {
      for (const name of readdirSync(join(root, connection, source)))
        if (!name.endsWith('.sidecar.json')) out.push(join(connection, source, name));
    }
  }
  return out.sort();
}

/**
 * Drops into `to`'s landing folder, as a seller would by hand, the documents `from` landed that are not in `seen`,
 * in the order `from` landed them (their names without the file-id prefix the archive gives them, behind their
 * place in that order: a folder's files land in the order of their names, and of two versions of a record the later
 * landed wins); returns the new `seen`.
 */
export async function dropNewDocuments(from: Warehouse, to: Home, seen: Set<string>): Promise<Set<string>> {
  const order = new Map(
    (await from.db.selectFrom('control.landed_files').select('id').orderBy('landed_at').execute()).map((f, i) => [
      f.id,
      i,
    ]),
  );
  for (const relative of landedDocuments(from.home)) {
    if (seen.has(relative)) continue;
    const [connection, source, name] = relative.split('/') as [string, string, string];
    const place = String(order.get(name.slice(0, 36)) ?? order.size).padStart(6, '0');
    mkdirSync(join(to.landing, connection, source), { recursive: true });
    cpSync(
      join(from.home.root, 'landed', relative),
      join(to.landing, connection, source, `${place}-${name.slice(37)}`),
    );
    seen.add(relative);
  }
  return seen;
}

export { sidecarOf };

const DAY = 86_400_000;
// A first load on Friday 2026-11-20 at 10:30 in Los Angeles (18:30Z), then three daily runs at the same time. The
// sellers opened on 2026-06-01: the first load's older windows hold nothing and end CANCELLED.
export const START = '2026-11-20T18:30:00Z';
export const OPENED_ON = '2026-06-01';

/**
 * The clock of a test that runs `mktdata` as a child process, from START: the child keeps a virtual clock in `file`
 * (MKTDATA_CLOCK_FILE, which `fakeMarketplaceEnv(fake, clock)` sets) and `fake`, the fake's clock, reads it there.
 * Time moves only while the child waits, so a busy machine cannot make a link expire or a poll run out.
 */
export function childProcessClock(): { file: string; start: number; fake: ReturnType<typeof fileClock> } {
  const file = join(mkdtempSync(join(tmpdir(), 'mktdata-clock-')), 'clock');
  const start = Date.parse(START);
  return { file, start, fake: fileClock(file, start) };
}

/**
 * Home A fetches through the connectors; after each of its pipeline runs, the documents A landed are dropped by hand
 * into home B's landing folder and B runs the same pipeline at the same clock: the published tables must agree.
 */
export async function firstLoadAndThreeDays(live: Awaited<ReturnType<typeof liveMarketplace>>, homes: Warehouse[]) {
  const a = await demoHome('mktdata-live-a-');
  const b = await demoHome('mktdata-live-b-');
  homes.push(a.wh, b.wh);
  await connectAll(a.wh, live.fake, live.sellers);
  const seen = new Set<string>();
  for (let day = 0; day < 4; day++) {
    if (day > 0) live.clock.jump(DAY);
    // As `mktdata run` does: every pipeline, then one publish per home.
    const runs: { a: RunSummary[]; b: RunSummary[] } = { a: [], b: [] };
    for (const pipeline of loadPipelines()) {
      const now = new Date(live.clock.now());
      runs.a.push(await runPipeline(a.wh, pipeline, { now, fetcher: live.fetcher, deferPublish: true }));
      await dropNewDocuments(a.wh, b.home, seen);
      runs.b.push(await runPipeline(b.wh, pipeline, { now, deferPublish: true }));
    }
    await publishDeferred(a.wh, runs.a);
    await publishDeferred(b.wh, runs.b);
  }
  return { a, b, documents: seen.size };
}
