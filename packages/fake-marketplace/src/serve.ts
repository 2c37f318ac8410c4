import { scaledClock, systemClock } from './clock.ts';
import { demoSellers } from './data/sellers.ts';
import { fakeMarketplaceEnv, startFakeMarketplace } from './server.ts';

/** Options of `mktdata fake-marketplace` (and of this package's own `fake-marketplace` command). */
export interface ServeOptions {
  host: string;
  port: number;
  /** Clock milliseconds per real one. @default 1 */
  speed?: number;
  /** ISO date-time the fake's clock starts at. @default now */
  start?: string;
  /** The day the demo sellers opened (their data starts then). @default the data library's */
  openedOn?: string;
  /** Refuse requests over the documented rate limits with 429. @default true */
  throttling?: boolean;
}

/**
 * Serves the fake marketplace until SIGINT or SIGTERM, and prints what a mktdata home needs to be pointed at it: the
 * environment (endpoints, the fake applications, the clock) and a refresh token per demo seller and API.
 */
export async function serveFakeMarketplace(options: ServeOptions): Promise<void> {
  const speed = options.speed ?? 1;
  const start = options.start === undefined ? undefined : Date.parse(options.start);
  if (start !== undefined && Number.isNaN(start)) throw new Error(`--start is not an ISO date-time: ${options.start}`);
  const realStart = Date.now();
  const clock = speed === 1 && start === undefined ? systemClock : scaledClock(speed, start ?? realStart, realStart);
  const sellers = demoSellers(options.openedOn);
  const fake = await startFakeMarketplace({
    sellers,
    clock,
    host: options.host,
    port: options.port,
    throttling: options.throttling,
  });
  const env = fakeMarketplaceEnv(
    fake,
    clock === systemClock ? undefined : { speed, start: start ?? realStart, realStart },
  );
  console.log(`fake marketplace listening on ${fake.url} (test applications and sellers only; stop with Ctrl-C)`);
  console.log('\n# point mktdata at it:');
  for (const [name, value] of Object.entries(env)) console.log(`export ${name}='${value}'`);
  console.log('\n# refresh tokens, as if each seller had authorized the applications:');
  for (const seller of sellers) {
    console.log(`${seller.sellerId} ${seller.marketplaceId} ${seller.name}`);
    console.log(`  sp-api  ${fake.grant(seller.sellerId, 'sp-api')}`);
    if (seller.ads) console.log(`  ads     ${fake.grant(seller.sellerId, 'ads')} (profile ${seller.ads.profileId})`);
  }
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await fake.close();
}
