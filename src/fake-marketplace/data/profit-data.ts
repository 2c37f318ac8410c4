import type { FakeData } from './types.ts';

/** Orders, settlements, returns, sales and traffic, fulfilled shipments and ads (stub: replaced by the data library). */
export const profitData: Pick<FakeData, 'settlements' | 'adsReport'> & { report: FakeData['report']; reportTypes: readonly string[] } = {
  reportTypes: [],
  report: () => null,
  settlements: () => [],
  adsReport: () => [],
};
