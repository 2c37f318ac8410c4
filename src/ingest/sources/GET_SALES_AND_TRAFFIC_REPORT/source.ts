import { reportFetch } from '../../fetch-spec.ts';
import type { Source } from '../../source.ts';
import { z } from 'zod';
import type { FlatColumn } from '../../flat-file.ts';
import { jsonSource, refusedDocument, type JsonRecord } from '../../json-records.ts';
import { RefusedFile } from '../../source.ts';

// The by-ASIN fields of sellerSalesAndTrafficReport.json. Shipped sales, units and orders, refunded units and the
// refund rate are not among them: the report has them by date only, for the whole account (upstream-formats §d).
const amounts = ['orderedProductSales', 'orderedProductSalesB2B'];
const counts = [
  'unitsOrdered',
  'unitsOrderedB2B',
  'totalOrderItems',
  'totalOrderItemsB2B',
  'browserSessions',
  'mobileAppSessions',
  'sessions',
  'sessionsB2B',
  'browserPageViews',
  'mobileAppPageViews',
  'pageViews',
  'pageViewsB2B',
];
const percents = ['buyBoxPercentage', 'buyBoxPercentageB2B', 'unitSessionPercentage', 'unitSessionPercentageB2B'];

/** One row per by-ASIN entry of a one-day report; metrics missing from the report stay null. */
const columns: FlatColumn[] = [
  { name: 'date', type: 'date', required: 'value' },
  { name: 'asinGranularity', type: 'text' },
  { name: 'parentAsin', type: 'text' },
  { name: 'childAsin', type: 'text', required: 'value' },
  { name: 'sku', type: 'text' },
  { name: 'currencyCode', type: 'text' },
  ...amounts.map((name): FlatColumn => ({ name, type: 'decimal' })),
  ...counts.map((name): FlatColumn => ({ name, type: 'integer' })),
  ...percents.map((name): FlatColumn => ({ name, type: 'decimal' })),
];

const amount = z.object({ amount: z.number(), currencyCode: z.string() }).partial();
const report = z
  .object({
    reportSpecification: z
      .object({
        dataStartTime: z.string().regex(/^\d{4}-\d{2}-\d{2}/),
        dataEndTime: z.string().regex(/^\d{4}-\d{2}-\d{2}/),
        reportOptions: z.object({ asinGranularity: z.string().optional() }).passthrough().optional(),
      })
      .passthrough(),
    // Not landed (the daily tables come from the by-ASIN block), but a document whose by-date block is damaged is too.
    salesAndTrafficByDate: z.array(z.object({}).passthrough()).optional(),
    salesAndTrafficByAsin: z.array(
      z
        .object({
          parentAsin: z.string().optional(),
          childAsin: z.string().optional(),
          sku: z.string().optional(),
          salesByAsin: z.record(z.string(), z.unknown()).optional(),
          trafficByAsin: z.record(z.string(), z.unknown()).optional(),
        })
        .passthrough(),
    ),
  })
  .passthrough();

/**
 * Sales and Traffic report (upstream-formats d). The by-ASIN block has no date: it totals the whole
 * report range, so only one-day reports can feed the daily tables; others are refused.
 * Keys missing from an entry (B2B fields, Amazon's own `browerPageViews` typo) are tolerated.
 */
function records(document: unknown): JsonRecord[] {
  const parsed = report.safeParse(document);
  if (!parsed.success) throw refusedDocument('a sales and traffic report', parsed.error, 'salesAndTrafficByAsin');
  const { reportSpecification: spec, salesAndTrafficByAsin: entries } = parsed.data;
  if (entries.length === 0) return [];
  const day = spec.dataStartTime.slice(0, 10);
  if (day !== spec.dataEndTime.slice(0, 10)) {
    throw new RefusedFile(
      null,
      `the by-ASIN block totals ${day}..${spec.dataEndTime.slice(0, 10)} without a date; the daily tables need one-day reports (dataStartTime = dataEndTime)`,
    );
  }
  const granularity = spec.reportOptions?.asinGranularity ?? null;
  return entries.map((entry, i) => {
    if (!entry.childAsin)
      throw new RefusedFile(
        i + 1,
        `record ${i + 1}: no childAsin (asinGranularity ${granularity ?? 'unknown'}); request CHILD or SKU granularity`,
      );
    const metrics: JsonRecord = { ...entry.salesByAsin, ...entry.trafficByAsin };
    const record: JsonRecord = {
      date: day,
      asinGranularity: granularity,
      parentAsin: entry.parentAsin,
      childAsin: entry.childAsin,
      sku: entry.sku,
    };
    for (const name of amounts) {
      const value = amount.safeParse(metrics[name]);
      record[name] = value.success ? value.data.amount : metrics[name];
      if (value.success && value.data.currencyCode) record.currencyCode ??= value.data.currencyCode;
    }
    for (const name of [...counts, ...percents]) record[name] = metrics[name];
    return record;
  });
}

export const source: Source = {
  ...jsonSource('GET_SALES_AND_TRAFFIC_REPORT', 'raw.get_sales_and_traffic_report', columns, records),
  // Per ASIN and day needs one-day reports: the by-ASIN block aggregates over the whole window (upstream-formats §d).
  fetch: reportFetch('GET_SALES_AND_TRAFFIC_REPORT', 'dates', {
    reportOptions: { dateGranularity: 'DAY', asinGranularity: 'CHILD' },
    historyDays: 730,
    maxDays: 1,
  }),
};
