import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { catchUpClock, type CatchUpClock } from '../time/clock.ts';
import { endpointsUnder, type ConnectorConfig } from '../connectors/config.ts';
import { Connectors } from '../connectors/connectors.ts';
import { setCredentials } from '../connectors/credentials.ts';
import { addConnection } from '../control/connections/connections.ts';
import type { Warehouse } from '../db/warehouse.ts';
import { loadFakeMarketplace, type FakeMarketplace, type FakeSeller } from './fake-marketplace.ts';
import { addDays, localDate } from '../time/zone.ts';
import { findConnection } from '../control/connections/connections.ts';

/** The demo's connections: the sellers of the fake marketplace, with fixed ids (the README's examples use them). */
export const demoConnections = [
  { id: '6f1c2f0e-3b7a-4c55-9d0e-1a2b3c4d5e01', sellerId: 'A3ACMEUS0SELLER' },
  { id: '6f1c2f0e-3b7a-4c55-9d0e-1a2b3c4d5e02', sellerId: 'A3ACMEDE0SELLER' },
];

/** The demo sellers' history: half a year before today. */
export const DEMO_HISTORY_DAYS = 180;

/**
 * How far in the past the demo's clock starts: its first load waits 7–9 hours of the clock on the documented rate
 * limits, and the clock must not pass real time before it is done, so that no time it records lies in the future.
 */
export const DEMO_CLOCK_LEAD_MS = 24 * 3_600_000;

/** A fake marketplace in this process, the connectors pointed at it, and the clock they share. */
export interface DemoMarketplace {
  fake: FakeMarketplace;
  connectors: Connectors;
  clock: CatchUpClock;
  sellers: FakeSeller[];
}

/**
 * Starts the fake marketplace with the demo's two sellers on a clock that starts a day ago and moves while the
 * connectors wait (see catchUpClock), and the connectors for it.
 */
export async function startDemoMarketplace(): Promise<DemoMarketplace> {
  const { demoSellers, startFakeMarketplace } = await loadFakeMarketplace();
  const clock = catchUpClock(DEMO_CLOCK_LEAD_MS);
  const sellers = demoSellers(addDays(localDate(clock.now(), 'America/Los_Angeles'), -DEMO_HISTORY_DAYS));
  const fake = await startFakeMarketplace({ sellers, clock });
  const config: ConnectorConfig = {
    spApi: {
      applicationId: fake.spApp.applicationId,
      clientId: fake.spApp.clientId,
      clientSecret: fake.spApp.clientSecret,
      draftApp: false,
    },
    ads: { clientId: fake.adsApp.clientId, clientSecret: fake.adsApp.clientSecret },
    endpoints: endpointsUnder(fake.url),
    file: 'the demo (its fake marketplace)',
  };
  return { fake, connectors: new Connectors(config, clock), clock, sellers };
}

/**
 * Adds the demo connections to an organization (once) and connects them to the fake marketplace, as an
 * administrator holding their refresh tokens would (`mktdata connections credentials`); unit costs and promotions,
 * which have no upstream operation, are dropped in landing/ as a seller would.
 */
export async function connectDemoSellers(
  wh: Warehouse,
  organizationId: string,
  demo: DemoMarketplace,
  promotionsDir: string,
): Promise<void> {
  const { cogsCsv } = await loadFakeMarketplace();
  for (const [index, seller] of demo.sellers.entries()) {
    const { id } = demoConnections[index]!;
    const exists = await findConnection(wh.db, id);
    if (!exists)
      await addConnection(wh, {
        organizationId,
        id,
        name: seller.name,
        marketplaceId: seller.marketplaceId,
        sellerId: seller.sellerId,
      });
    await setCredentials(wh, id, {
      api: 'sp-api',
      refreshToken: demo.fake.grant(seller.sellerId, 'sp-api'),
      sellingPartnerId: seller.sellerId,
    });
    if (seller.ads)
      await setCredentials(wh, id, {
        api: 'ads',
        refreshToken: demo.fake.grant(seller.sellerId, 'ads'),
        profileId: String(seller.ads.profileId),
      });
    const drop = (source: string, name: string, content: string) => {
      mkdirSync(join(wh.home.landing, id, source), { recursive: true });
      writeFileSync(join(wh.home.landing, id, source, name), content);
    };
    drop('cogs', 'cogs.csv', cogsCsv(seller));
    drop('promotions', 'promotions.json', readPromotions(promotionsDir, seller.countryCode));
  }
}

/** The bundled promotions of a country (the marketplace offers no promotions operation). */
function readPromotions(dir: string, country: string): string {
  const folder = join(dir, country.toLowerCase(), 'promotions');
  const file = readdirSync(folder).find((f) => f.endsWith('.json'))!;
  return readFileSync(join(folder, file), 'utf8');
}
