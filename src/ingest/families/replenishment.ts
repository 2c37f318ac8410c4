/**
 * The Replenishment API 2022-11-07 responses (Subscribe and Save), saved as returned by
 * POST /replenishment/2022-11-07/sellingPartners/metrics/search, /offers/metrics/search and /offers/search: each page
 * of a paginated response is one file. Their records, checked.
 */
import { type JsonRecord } from '../json-records.ts';
import { RefusedFile } from '../source.ts';
import { offerJsonFields } from './replenishment-columns.ts';

const isObject = (value: unknown): value is JsonRecord =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The records under `key` of a response object; an `{errors: [...]}` body saved by mistake is named as such. */
function recordsUnder(document: unknown, key: 'metrics' | 'offers', operation: string): JsonRecord[] {
  if (!isObject(document))
    throw new RefusedFile(null, `expected a ${operation} response: a JSON object with an array "${key}"`);
  if (Array.isArray(document.errors)) {
    const first = isObject(document.errors[0])
      ? `${String(document.errors[0].code)}: ${String(document.errors[0].message)}`
      : 'no detail';
    throw new RefusedFile(null, `an API error response, not ${operation} data (${first})`);
  }
  const list = document[key];
  if (!Array.isArray(list)) throw new RefusedFile(null, `not a ${operation} response: no "${key}" array`);
  list.forEach((record, i) => {
    if (!isObject(record)) throw new RefusedFile(i + 1, `record ${i + 1} is not an object`);
  });
  return list as JsonRecord[];
}

const isoDateTime = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2}))?$/;

/**
 * Flattens `timeInterval` into startDate and endDate; a bare date means that day at 00:00 UTC, as the API spells it.
 */
function withInterval(record: JsonRecord, i: number): JsonRecord {
  const { timeInterval, ...rest } = record;
  const interval = isObject(timeInterval) ? timeInterval : {};
  const flat: JsonRecord = { ...rest };
  for (const key of ['startDate', 'endDate']) {
    const value = interval[key];
    if (typeof value !== 'string' || value.trim() === '')
      throw new RefusedFile(i + 1, `record ${i + 1}: timeInterval.${key} is missing`);
    if (!isoDateTime.test(value))
      throw new RefusedFile(
        i + 1,
        `record ${i + 1}: timeInterval.${key} ${JSON.stringify(value)} is not an ISO 8601 date-time`,
      );
    flat[key] = value.length === 10 ? `${value}T00:00:00Z` : value;
  }
  return flat;
}

/** Vendors get offers without SKU; the SKU-level tables are seller tables, so say so rather than "sku is missing". */
function requireSku(record: JsonRecord, i: number): void {
  if (typeof record.sku !== 'string' || record.sku.trim() === '') {
    throw new RefusedFile(
      i + 1,
      `record ${i + 1}: sku is missing (vendor responses carry no SKU; the replenishment SKU tables are for seller accounts)`,
    );
  }
}

/** getSellingPartnerMetrics: one record per metrics element (one per interval and metric group). */
export const sellingPartnerMetrics = (document: unknown) =>
  recordsUnder(document, 'metrics', 'getSellingPartnerMetrics').map(withInterval);

/** listOfferMetrics: one record per offer and interval; `pagination` is not data. */
export const offerMetrics = (document: unknown) =>
  recordsUnder(document, 'offers', 'listOfferMetrics').map((record, i) => {
    requireSku(record, i);
    return withInterval(record, i);
  });

/** listOffers: one record per offer of the connection's marketplace; the JSON columns' values land as JSON text. */
export const offers = (document: unknown, marketplaceId: string) =>
  recordsUnder(document, 'offers', 'listOffers').map((record, i) => {
    requireSku(record, i);
    if (typeof record.marketplaceId === 'string' && record.marketplaceId !== marketplaceId) {
      throw new RefusedFile(
        i + 1,
        `record ${i + 1}: marketplaceId ${record.marketplaceId} is not the connection's marketplace ${marketplaceId}`,
      );
    }
    const flat: JsonRecord = { ...record };
    for (const field of offerJsonFields)
      flat[field] = record[field] === undefined || record[field] === null ? null : JSON.stringify(record[field]);
    return flat;
  });
