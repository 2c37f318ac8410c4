import { adsReport } from './ads-report.ts';
import { fulfilledShipmentsReport } from './fulfilled-shipments-report.ts';
import { ordersReport } from './orders-report.ts';
import { returnsReport } from './returns-report.ts';
import { salesAndTrafficReport } from './sales-and-traffic.ts';
import { settlements } from './settlements.ts';
import type { FakeData, FakeDocument, FakeReportRequest } from './types.ts';
import type { FakeSeller } from './sellers.ts';

type Window = (seller: FakeSeller, start: number, end: number, asOf: number) => FakeDocument | null;
const windowed = (f: Window) => (seller: FakeSeller, r: FakeReportRequest) =>
  f(seller, Date.parse(r.dataStartTime), Date.parse(r.dataEndTime), r.asOf);

const reports: Record<string, (seller: FakeSeller, request: FakeReportRequest) => FakeDocument | null> = {
  GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL: windowed(ordersReport),
  GET_FBA_FULFILLMENT_CUSTOMER_RETURNS_DATA: windowed(returnsReport),
  GET_AMAZON_FULFILLED_SHIPMENTS_DATA_GENERAL: windowed(fulfilledShipmentsReport),
  GET_SALES_AND_TRAFFIC_REPORT: salesAndTrafficReport,
};

/** Orders, settlements, returns, sales and traffic, fulfilled shipments and ads: everything derived from the orders. */
export const profitData: Pick<FakeData, 'settlements' | 'adsReport'> & {
  report: FakeData['report'];
  reportTypes: readonly string[];
} = {
  reportTypes: Object.keys(reports),
  report: (seller, request) => reports[request.reportType]?.(seller, request) ?? null,
  settlements,
  adsReport,
};
