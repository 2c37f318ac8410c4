import { operationFetch } from '../../fetch-spec.ts';
import type { Source } from '../../source.ts';
import { z } from 'zod';
import type { FlatColumn } from '../../flat-file.ts';
import { jsonSource, refusedDocument, type JsonRecord } from '../../json-records.ts';
import { RefusedFile } from '../../source.ts';

const integer = (name: string): FlatColumn => ({ name, type: 'integer' });

/** One row per inventory summary; the quantity buckets of `inventoryDetails` become columns. */
const columns: FlatColumn[] = [
  { name: 'granularityType', type: 'text' },
  { name: 'granularityId', type: 'text' },
  { name: 'sellerSku', type: 'text', required: 'value' },
  { name: 'asin', type: 'text' },
  { name: 'fnSku', type: 'text' },
  { name: 'condition', type: 'text' },
  { name: 'productName', type: 'text' },
  { name: 'lastUpdatedTime', type: 'timestamp' },
  integer('totalQuantity'),
  integer('fulfillableQuantity'),
  integer('inboundWorkingQuantity'),
  integer('inboundShippedQuantity'),
  integer('inboundReceivingQuantity'),
  integer('totalReservedQuantity'),
  integer('pendingCustomerOrderQuantity'),
  integer('pendingTransshipmentQuantity'),
  integer('fcProcessingQuantity'),
  integer('totalResearchingQuantity'),
  integer('totalUnfulfillableQuantity'),
  integer('customerDamagedQuantity'),
  integer('warehouseDamagedQuantity'),
  integer('distributorDamagedQuantity'),
  integer('carrierDamagedQuantity'),
  integer('defectiveQuantity'),
  integer('expiredQuantity'),
  integer('reservedFutureSupplyQuantity'),
  integer('futureSupplyBuyableQuantity'),
];

const summaries = z.array(z.record(z.string(), z.unknown()));
const response = z
  .object({
    payload: z
      .object({ granularity: z.record(z.string(), z.unknown()).optional(), inventorySummaries: summaries })
      .passthrough()
      .optional(),
    errors: z.array(z.object({ code: z.string().optional(), message: z.string().optional() }).passthrough()).optional(),
  })
  .passthrough();

/** `inventoryDetails` flattened one level: `reservedQuantity.totalReservedQuantity` → `totalReservedQuantity`. */
function flattenDetails(details: unknown): JsonRecord {
  if (details === null || typeof details !== 'object') return {};
  const flat: JsonRecord = {};
  for (const [key, value] of Object.entries(details)) {
    const nested = value !== null && typeof value === 'object' && !Array.isArray(value);
    if (nested) Object.assign(flat, value);
    else flat[key] = value;
  }
  return flat;
}

/**
 * getInventorySummaries response (upstream-formats f2): `{payload: {granularity, inventorySummaries}, pagination}`.
 * One page per file; unknown fields (`stores`, `researchingQuantityBreakdown`) are kept in `_extra`.
 */
function records(document: unknown): JsonRecord[] {
  const parsed = response.safeParse(document);
  if (!parsed.success) throw refusedDocument('a getInventorySummaries response', parsed.error, 'inventorySummaries');
  const { payload, errors } = parsed.data;
  if (!payload) {
    const first = errors?.[0];
    throw new RefusedFile(
      null,
      first
        ? `the response is an error: ${first.code ?? ''} ${first.message ?? ''}`.trim()
        : 'not a getInventorySummaries response: no payload',
    );
  }
  const granularity = payload.granularity ?? {};
  return payload.inventorySummaries.map(({ inventoryDetails, ...summary }) => ({
    granularityType: granularity.granularityType,
    granularityId: granularity.granularityId,
    ...summary,
    ...flattenDetails(inventoryDetails),
  }));
}

/** FBA inventory summaries: every page as delivered, one row per SKU summary. */
export const source: Source = {
  ...jsonSource('fbaInventory.getInventorySummaries', 'raw.fba_inventory_get_inventory_summaries', columns, records),
  fetch: operationFetch('fbaInventory.getInventorySummaries', 'none'),
};
