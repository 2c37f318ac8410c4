/**
 * A fake marketplace on loopback: LWA, the consent pages, the SP-API and Ads API operations mktdata calls, and the
 * notification queue, with test applications and generated sellers. Its answers follow the marketplace's published API
 * models, not mktdata's clients.
 */
export {
  startFakeMarketplace,
  fakeMarketplaceEnv,
  defaultSpApp,
  defaultAdsApp,
  type FakeMarketplace,
  type FakeMarketplaceOptions,
  type FakeApp,
  type RequestLogEntry,
  type OperationSwitch,
  type ServedOperation,
} from './server.ts';
export type { Exchange } from './request-log.ts';
export { serveFakeMarketplace, type ServeOptions } from './serve.ts';
export { systemClock, scaledClock, fileClock, type Clock } from './clock.ts';
export { fakeData, demoSellers } from './data/index.ts';
export type { FakeSeller } from './data/sellers.ts';
export type { FakeData } from './data/types.ts';
export { demoVendor } from './data/vendors.ts';
export { cogsCsv } from './data/cogs.ts';
export { Rng } from './data/random.ts';
export { Throttle, documentedPlans } from './throttle.ts';
