import { jsonSource, type JsonRecord } from '../../json-records.ts';
import { RefusedFile } from '../../source.ts';
import {
  itemNumberFields,
  itemTextFields,
  promotionColumns,
  promotionDateFields,
  promotionJsonFields,
} from './format.ts';

const isObject = (value: unknown): value is JsonRecord =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const absent = (value: unknown) => value === undefined || value === null;
const isoDay = /^\d{4}-\d{2}-\d{2}$/;
const isoDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;
const numeric = /^-?\d+(\.\d+)?$/;

/** Refuses record `n` for `field` with `why`. */
const refuse = (n: number, field: string, why: string) => new RefusedFile(n, `record ${n}: ${field} ${why}`);

/** Checks the `items` of record `n` and returns them as JSON text (null when there are none). */
function itemsOf(value: unknown, n: number): string | null {
  if (absent(value)) return null;
  if (!Array.isArray(value)) throw refuse(n, 'items', 'is not an array');
  const seen = new Set<string>();
  value.forEach((item, j) => {
    const at = `items[${j}]`;
    if (!isObject(item)) throw refuse(n, at, 'is not an object');
    for (const field of itemTextFields) {
      if (!absent(item[field]) && typeof item[field] !== 'string') throw refuse(n, `${at}.${field}`, 'is not a string');
    }
    for (const field of ['asin', 'sku'])
      if (absent(item[field]) || String(item[field]).trim() === '') throw refuse(n, `${at}.${field}`, 'is missing');
    const key = `${String(item.asin)}\t${String(item.sku)}`;
    if (seen.has(key))
      throw refuse(n, at, `repeats asin ${String(item.asin)} and sku ${String(item.sku)} of an earlier item`);
    seen.add(key);
    for (const field of itemNumberFields) {
      const v = item[field];
      if (
        !absent(v) &&
        !(typeof v === 'number' && Number.isFinite(v)) &&
        !(typeof v === 'string' && numeric.test(v.trim()))
      ) {
        throw refuse(n, `${at}.${field}`, `${JSON.stringify(v)} is not a number`);
      }
    }
    if (!absent(item.issues) && typeof item.issues !== 'object')
      throw refuse(n, `${at}.issues`, 'is not an array or object');
  });
  return JSON.stringify(value);
}

/** One promotion record, checked: dates in a known form, JSON fields structured, items well-formed. */
function promotionRecord(record: unknown, i: number, syncedAt: unknown): JsonRecord {
  const n = i + 1;
  if (!isObject(record)) throw new RefusedFile(n, `record ${n} is not an object`);
  const flat: JsonRecord = { ...record, lastSyncedAt: record.lastSyncedAt ?? syncedAt };
  if (
    !absent(record.lastSyncedAt) &&
    !(typeof record.lastSyncedAt === 'string' && isoDateTime.test(record.lastSyncedAt))
  ) {
    throw refuse(n, 'lastSyncedAt', `${JSON.stringify(record.lastSyncedAt)} is not an ISO 8601 date-time with offset`);
  }
  for (const field of promotionDateFields) {
    const v = record[field];
    if (!absent(v) && !(typeof v === 'string' && (isoDay.test(v) || isoDateTime.test(v)))) {
      throw refuse(n, field, `${JSON.stringify(v)} is neither YYYY-MM-DD nor an ISO 8601 date-time with offset`);
    }
  }
  for (const field of promotionJsonFields) {
    if (!absent(record[field]) && typeof record[field] !== 'object')
      throw refuse(n, field, 'is not an array or object');
    flat[field] = absent(record[field]) ? null : JSON.stringify(record[field]);
  }
  flat.items = itemsOf(record.items, n);
  return flat;
}

/**
 * The promotion records of a promotions document, each checked; the document's syncedAt fills a missing lastSyncedAt.
 */
function promotions(document: unknown): JsonRecord[] {
  if (!isObject(document) || !Array.isArray(document.promotions)) {
    throw new RefusedFile(
      null,
      'expected a promotions document: a JSON object with an array "promotions" (docs/promotions-format.md)',
    );
  }
  const { syncedAt } = document;
  if (!absent(syncedAt) && !(typeof syncedAt === 'string' && isoDateTime.test(syncedAt))) {
    throw new RefusedFile(null, `syncedAt ${JSON.stringify(syncedAt)} is not an ISO 8601 date-time with offset`);
  }
  return document.promotions.map((record, i) => promotionRecord(record, i, syncedAt));
}

/**
 * The `promotions` source: the marketplace publishes no file for promotions, so mktdata defines the JSON shape
 * (docs/promotions-format.md), close to the mkt_promotions and mkt_promotion_items columns:
 * `{"syncedAt": "<ISO date-time>", "promotions": [{"promotionId": "…", …, "items": [{"asin": "…", "sku": "…", …}]}]}`.
 * Promotion fields are the mkt_promotions columns in camelCase (`benefitPercentOff` in percent points); dates are
 * `YYYY-MM-DD` (marketplace-local) or ISO date-times with offset; `items` holds the ITEMS selection's per-item
 * settings (the mkt_promotion_items columns in camelCase, `asin` and `sku` required). One row per promotion lands in
 * `raw.promotions` with `items` as JSON text; unknown fields are kept in `_extra` (and inside `items`).
 */
export const source = jsonSource('promotions', 'raw.promotions', promotionColumns, promotions);
