import { operationFetch } from '../../fetch-spec.ts';
import type { Source } from '../../source.ts';
import { z } from 'zod';
import type { FlatColumn } from '../../flat-file.ts';
import { jsonSource, refusedDocument, type JsonRecord } from '../../json-records.ts';
import { RefusedFile } from '../../source.ts';

/** One row per response: the item, its condition, and `Summary` and `Offers` kept as the API's JSON. */
const columns: FlatColumn[] = [
  { name: 'ASIN', type: 'text', required: 'value' },
  { name: 'ItemCondition', type: 'text', required: 'value' },
  { name: 'marketplaceId', type: 'text' },
  { name: 'status', type: 'text' },
  { name: 'SellerSKU', type: 'text' },
  { name: 'Identifier', type: 'text' },
  { name: 'Summary', type: 'text' },
  { name: 'Offers', type: 'text' },
];

const identifier = z
  .object({ ASIN: z.string().optional(), ItemCondition: z.string().optional(), SellerSKU: z.string().optional() })
  .passthrough();
const response = z
  .object({
    payload: z
      .object({
        ASIN: z.string().optional(),
        ItemCondition: z.string().optional(),
        Identifier: identifier.optional(),
        Summary: z.record(z.string(), z.unknown()).optional(),
        Offers: z.array(z.object({}).passthrough()).optional(),
      })
      .passthrough()
      .optional(),
    errors: z.array(z.object({ code: z.string().optional(), message: z.string().optional() }).passthrough()).optional(),
  })
  .passthrough();

/**
 * Product Pricing v0 getItemOffers response (upstream-formats g): `{payload: {ASIN, ItemCondition, status,
 * Identifier, Summary, Offers, marketplaceId}}`. ASIN and condition fall back to `Identifier`.
 */
function records(document: unknown): JsonRecord[] {
  const parsed = response.safeParse(document);
  if (!parsed.success) throw refusedDocument('a getItemOffers response', parsed.error);
  const { payload, errors } = parsed.data;
  if (!payload) {
    const first = errors?.[0];
    throw new RefusedFile(
      null,
      first
        ? `the response is an error: ${first.code ?? ''} ${first.message ?? ''}`.trim()
        : 'not a getItemOffers response: no payload',
    );
  }
  const { Identifier: id, ...rest } = payload;
  return [
    {
      ...rest,
      ASIN: payload.ASIN ?? id?.ASIN,
      ItemCondition: payload.ItemCondition ?? id?.ItemCondition,
      SellerSKU: id?.SellerSKU,
      Identifier: id,
    },
  ];
}

/** Competitive offers of one item and condition per response, as delivered. */
export const source: Source = {
  ...jsonSource('productPricing.getItemOffers', 'raw.product_pricing_get_item_offers', columns, records),
  fetch: operationFetch('productPricing.getItemOffers', 'none'),
};
