import { jsonSource } from '../../json-records.ts';
import { RefusedFile, type Source } from '../../source.ts';
import { adsReports } from './reports.ts';

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

/** One source per report type: `ads.spAdvertisedProduct` lands in `raw.ads_sp_advertised_product`. */
export const adsSources: Source[] = Object.entries(adsReports).map(([report, columns]) =>
  jsonSource(`ads.${report}`, `raw.ads_${report.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase()}`, columns, rowsOf),
);
