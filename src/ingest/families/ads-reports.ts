import type { FlatColumn } from '../flat-file.ts';
import { jsonSource } from '../json-records.ts';
import { RefusedFile, type Source } from '../source.ts';

export const text = (name: string, required?: FlatColumn['required']): FlatColumn => ({
  name,
  type: 'text',
  ...(required ? { required } : {}),
});
export const decimal = (name: string): FlatColumn => ({ name, type: 'decimal' });
export const integer = (name: string): FlatColumn => ({ name, type: 'integer' });
export const date: FlatColumn = { name: 'date', type: 'date', required: 'value' };
export const currency: FlatColumn = { name: 'campaignBudgetCurrencyCode', type: 'text' };
export const campaign = [text('campaignId', 'value'), text('campaignName')];
export const adGroup = [text('adGroupId'), text('adGroupName')];
export const delivery = [
  integer('impressions'),
  integer('clicks'),
  { name: 'cost', aliases: ['spend'], type: 'decimal' } satisfies FlatColumn,
];

/** An Ads API v3 (or DSP) report download: a JSON array of flat objects keyed by column name. */
function rowsOf(document: unknown): Record<string, unknown>[] {
  if (!Array.isArray(document))
    throw new RefusedFile(null, 'expected a JSON array of report rows, as the Ads API report download delivers');
  document.forEach((row, i) => {
    if (row === null || typeof row !== 'object' || Array.isArray(row))
      throw new RefusedFile(i + 1, `record ${i + 1} is not an object`);
  });
  return document as Record<string, unknown>[];
}

/**
 * An Ads API v3 report type as a source: `ads.spAdvertisedProduct` lands in `raw.ads_sp_advertised_product`, and is
 * requested for its ad product and grouping with the columns the tables read (docs/design/live-apis.md §4).
 * The columns the tables use are typed; every other column a report carries is kept in `_extra`. SP metrics use the
 * 7-day window, SB and SD the 14-day one (unsuffixed names), DSP 14 days (upstream-formats e2).
 */
export function adsReportSource(
  reportTypeId: string,
  request: { adProduct: string; groupBy: string[]; maxDays: number; retentionDays: number },
  columns: FlatColumn[],
): Source {
  const table = `raw.ads_${reportTypeId.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase()}`;
  return {
    ...jsonSource(`ads.${reportTypeId}`, table, columns, rowsOf),
    fetch: { kind: 'ads-report', api: 'ads', reportTypeId, ...request, columns: columns.map((c) => c.name) },
  };
}
