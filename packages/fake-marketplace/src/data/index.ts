import { inventoryData } from './inventory-data.ts';
import { profitData } from './profit-data.ts';
import type { FakeData } from './types.ts';

export type {
  FakeData,
  FakeDocument,
  FakeReportRequest,
  FakeSettlement,
  FakeAdsReportRequest,
  FakeInboundPlan,
} from './types.ts';
export { demoSellers, type FakeSeller, type FakeAdsAccount } from './sellers.ts';

/** The report types the fake can generate (settlements are listed, not requested). */
export const requestableReportTypes: readonly string[] = [...profitData.reportTypes, ...inventoryData.reportTypes];

/** The fake marketplace's data: every document and record, as pure functions of seller, request and time. */
export const fakeData: FakeData = {
  ...inventoryData,
  ...profitData,
  report: (seller, request) =>
    profitData.reportTypes.includes(request.reportType)
      ? profitData.report(seller, request)
      : inventoryData.report(seller, request),
};
