/**
 * The fake marketplace package, loaded when a demo or `mktdata fake-marketplace` starts and never otherwise: the
 * product talks to it only through the base-URL override (MKTDATA_MARKETPLACE_URL, `endpointsUnder`).
 */
export type { FakeMarketplace, FakeSeller } from '@mktdata/fake-marketplace';
export const loadFakeMarketplace = () => import('@mktdata/fake-marketplace');
