import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { runModels } from '../../src/models/run-models.ts';
import { land, rows, writeOrders, type OrderLine } from './home.ts';

/** The 24 columns of the settlement report V2, in file order. */
export const settlementHeader =
  'settlement-id settlement-start-date settlement-end-date deposit-date total-amount currency transaction-type order-id merchant-order-id adjustment-id shipment-id marketplace-name amount-type amount-description amount fulfillment-id posted-date posted-date-time order-item-code merchant-order-item-id merchant-adjustment-item-id sku quantity-purchased promotion-id'.split(
    ' ',
  );
export type SettlementLine = Partial<Record<(typeof settlementHeader)[number], string>>;

/** Sum of decimal strings, exactly (cents and below), as a string with 2 decimals. */
export function decimalSum(values: string[]): string {
  const tenThousandths = values.reduce((sum, v) => {
    const [whole, fraction = ''] = v.replace(/^-/, '').split('.');
    const units = BigInt(whole! + fraction.padEnd(4, '0').slice(0, 4));
    return sum + (v.startsWith('-') ? -units : units);
  }, 0n);
  const sign = tenThousandths < 0n ? '-' : '';
  const abs = tenThousandths < 0n ? -tenThousandths : tenThousandths;
  const cents = abs / 100n;
  return `${sign}${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
}

/**
 * Writes a settlement report: the summary line (total-amount = the sum of the lines unless given), then the lines.
 * Every line gets the settlement id; currency appears on the summary only, as in real files.
 */
export function writeSettlement(
  dir: string,
  name: string,
  settlement: { id: string; currency: string; total?: string },
  lines: SettlementLine[],
): string {
  const total = settlement.total ?? decimalSum(lines.map((l) => l.amount ?? '0'));
  const summary: SettlementLine = {
    'settlement-id': settlement.id,
    'settlement-start-date': '2026-03-01 00:00:00 UTC',
    'settlement-end-date': '2026-03-15 00:00:00 UTC',
    'deposit-date': '2026-03-17 00:00:00 UTC',
    'total-amount': total,
    currency: settlement.currency,
  };
  const all: SettlementLine[] = [summary, ...lines.map((l) => ({ 'settlement-id': settlement.id, ...l }))];
  const text =
    [settlementHeader.join('\t'), ...all.map((l) => settlementHeader.map((h) => l[h] ?? '').join('\t'))].join('\n') +
    '\n';
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

export const returnsHeader =
  'return-date order-id sku asin fnsku product-name quantity fulfillment-center-id detailed-disposition reason status license-plate-number customer-comments'.split(
    ' ',
  );
export type ReturnLine = Partial<Record<(typeof returnsHeader)[number], string>>;

export function writeReturns(dir: string, name: string, lines: ReturnLine[]): string {
  const text =
    [returnsHeader.join('\t'), ...lines.map((l) => returnsHeader.map((h) => l[h] ?? '').join('\t'))].join('\n') + '\n';
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Writes a JSON document (an Ads report array, a sales and traffic report), gzipped when asked. */
export function writeJson(dir: string, name: string, value: unknown, options: { gzip?: boolean } = {}): string {
  const path = join(dir, name);
  const bytes = Buffer.from(JSON.stringify(value));
  writeFileSync(path, options.gzip ? gzipSync(bytes) : bytes);
  return path;
}

/** One by-ASIN entry of a sales and traffic report. */
export interface TrafficEntry {
  childAsin: string;
  parentAsin?: string;
  sku?: string;
  salesByAsin?: Record<string, unknown>;
  trafficByAsin?: Record<string, unknown>;
}

/** A one-day GET_SALES_AND_TRAFFIC_REPORT document (CHILD granularity unless told). */
export function trafficReport(date: string, marketplaceId: string, entries: TrafficEntry[], granularity = 'CHILD') {
  return {
    reportSpecification: {
      reportType: 'GET_SALES_AND_TRAFFIC_REPORT',
      reportOptions: { dateGranularity: 'DAY', asinGranularity: granularity },
      dataStartTime: date,
      dataEndTime: date,
      marketplaceIds: [marketplaceId],
    },
    salesAndTrafficByDate: [],
    salesAndTrafficByAsin: entries.map((e) => ({ parentAsin: e.parentAsin ?? e.childAsin, ...e })),
  };
}

/** A shipped order line of 1 unit at 10.00, purchased at noon UTC on 2026-03-10; override any field. */
export const orderLine = (over: OrderLine): OrderLine => ({
  'purchase-date': '2026-03-10T12:00:00+00:00',
  'last-updated-date': '2026-03-10T12:00:00+00:00',
  'order-status': 'Shipped',
  'fulfillment-channel': 'Amazon',
  sku: 'SKU-A',
  asin: 'B000000001',
  'item-status': 'Shipped',
  quantity: '1',
  currency: 'USD',
  'item-price': '10.00',
  ...over,
});

/** Lands a file and fails the test unless it landed. */
export async function landOk(
  wh: Warehouse,
  source: string,
  connection: { id: string; marketplaceId: string },
  path: string,
) {
  const result = await land(wh, source, connection, path);
  expect(result, `${source} ${path}`).toMatchObject({ status: 'landed' });
}

export async function landOrders(
  wh: Warehouse,
  dir: string,
  connection: { id: string; marketplaceId: string },
  lines: OrderLine[],
  name = `orders-${Math.random().toString(36).slice(2)}.tsv`,
) {
  await landOk(wh, 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL', connection, writeOrders(dir, name, lines));
}

/** Lands a COGS CSV (CogsUpsertRequest columns) for a connection. */
export async function landCogs(
  wh: Warehouse,
  dir: string,
  connection: { id: string; marketplaceId: string },
  lines: string[],
) {
  const path = join(dir, `cogs-${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(
    path,
    ['asin,sku,costCurrency,fromDate,costItemValue,costItemShippingValue,itemSupplierName', ...lines].join('\n') + '\n',
  );
  await landOk(wh, 'cogs', connection, path);
}

/** Builds every model and fails the test on any model error or error-severity check. */
export async function buildAll(wh: Warehouse) {
  const results = await runModels(wh);
  expect(results.filter((r) => r.status !== 'success').map((r) => `${r.model}: ${r.error}`)).toEqual([]);
  return results;
}

/** Rows of the SKU profit table for a connection, with the given columns, ordered by date, ASIN and SKU. */
export function skuProfit(wh: Warehouse, connectionId: string, columns: string[]) {
  return rows(
    wh,
    `select date, child_asin, sku, ${columns.join(', ')} from marts.mkt_profit_by_sku_and_date
    where seller_or_vendor_id = $c order by date, child_asin nulls first, sku nulls first`,
    { c: connectionId },
  );
}

/** Rows of the account profit table for a connection, with the given columns, ordered by date. */
export function dayProfit(wh: Warehouse, connectionId: string, columns: string[]) {
  return rows(
    wh,
    `select date, currency, ${columns.join(', ')} from marts.mkt_profit_by_date where seller_or_vendor_id = $c order by date`,
    { c: connectionId },
  );
}
