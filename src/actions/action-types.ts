import { z } from 'zod';

/** Every action type of spec document 000 ("Action"), in its order. */
export const actionTypes = [
  'MKT_LISTINGS_UPDATE', 'MKT_LISTINGS_PRICING_UPDATE', 'MKT_LISTINGS_DETAILS_UPDATE', 'MKT_LISTINGS_CREATE', 'MKT_LISTINGS_FIND',
  'MKT_LISTINGS_FEES_ESTIMATE', 'MKT_LISTINGS_FEATURED_PRICE_ESTIMATE', 'MKT_LISTINGS_COMPETITIVE_SUMMARY_FIND', 'MKT_LISTINGS_PRODUCT_TYPES_FIND',
  'MKT_LISTINGS_PRODUCT_TYPE_SUGGEST', 'MKT_LISTINGS_PRODUCT_TYPE_DEFINITION_FIND',
  'MKT_ORDERS_CANCEL', 'MKT_ORDERS_CONFIRM_SHIPMENT', 'MKT_ORDERS_SOLICITATION_FEEDBACK_SEND', 'MKT_ORDERS_GET_SHIPPING_RATES',
  'MKT_ORDERS_CREATE_SHIPMENT', 'MKT_ORDERS_GET_SHIPMENT_DOCS', 'MKT_ORDERS_CANCEL_SHIPMENT', 'MKT_FBA_REMOVAL_ORDERS_ADD',
  'MKT_APLUS_CONTENT_ADD', 'MKT_APLUS_CONTENT_UPDATE', 'MKT_APLUS_CONTENT_FIND', 'MKT_APLUS_CONTENT_ASINS_UPDATE', 'MKT_APLUS_CONTENT_ASINS_FIND',
  'MKT_APLUS_CONTENT_VALIDATE', 'MKT_APLUS_CONTENT_PUBLISH', 'MKT_APLUS_CONTENT_SUSPEND', 'MKT_APLUS_CONTENT_PUBLISH_RECORDS_FIND',
  ...['CAMPAIGNS', 'AD_GROUPS', 'TARGETS', 'ADS', 'AD_ASSOCIATIONS'].flatMap((entity) => ['ADD', 'REMOVE', 'UPDATE', 'FIND'].map((verb) => `MKT_ADS_${entity}_${verb}`)),
  'MKT_ADS_PORTFOLIOS_ADD', 'MKT_ADS_PORTFOLIOS_UPDATE', 'MKT_ADS_PORTFOLIOS_FIND', 'MKT_ADS_BRANDS_FIND', 'MKT_ADS_SP_BID_RECOMMENDATIONS_FIND',
  'MKT_ADS_SP_TARGET_RECOMMENDATIONS_FIND',
  ...['SP', 'SB', 'SD'].flatMap((kind) => ['ADD', 'UPDATE', 'ASSOCIATE', 'REMOVE'].map((verb) => `MKT_ADS_${kind}_BUDGET_RULES_${verb}`)),
  'MKT_MCF_ORDERS_ADD', 'MKT_MCF_ORDERS_UPDATE', 'MKT_MCF_ORDERS_FIND', 'MKT_MCF_ORDERS_CANCEL', 'MKT_MCF_ORDERS_PREVIEW', 'MKT_MCF_DELIVERY_OFFERS_PREVIEW',
  'MKT_MCF_FEATURES_MARKETPLACE_FIND', 'MKT_MCF_FEATURES_SKU_FIND', 'MKT_MCF_RETURNS_REASON_CODES_FIND', 'MKT_MCF_RETURNS_ADD',
  'MKT_SHIPMENT_TRACKING_SUBSCRIBE', 'MKT_VENDOR_PURCHASE_ORDERS_ACKNOWLEDGE', 'MKT_VENDOR_SHIPMENTS_SUBMIT', 'MKT_VENDOR_SHIPMENT_CONFIRMATIONS_SUBMIT',
  'MKT_VENDOR_SHIPMENT_LABELS_GET', 'MKT_VENDOR_TRANSACTIONS_GET', 'MKT_VENDOR_DF_ORDERS_ACKNOWLEDGE', 'MKT_VENDOR_DF_SHIPPING_LABELS_CREATE',
  'MKT_VENDOR_DF_SHIPPING_LABEL_REQUESTS_SUBMIT', 'MKT_VENDOR_DF_SHIPPING_LABEL_GET', 'MKT_VENDOR_DF_SHIPMENT_CONFIRMATIONS_SUBMIT',
  'MKT_VENDOR_DF_SHIPMENT_STATUS_UPDATES_SUBMIT', 'MKT_VENDOR_DF_PACKING_SLIP_GET', 'MKT_VENDOR_DF_TRANSACTIONS_GET',
] as const;
export type ActionType = (typeof actionTypes)[number];

/** The statuses of an action (spec document 000, "Action status"). */
export const actionStatuses = ['PENDING', 'IN_PROGRESS', 'WAITING_EXTERNAL_PROCESSING', 'COMPLETED', 'PARTIALLY_COMPLETED', 'COMPLETED_WITH_ISSUES', 'ERROR', 'BLOCKED_NO_TOKENS', 'BLOCKED_INVALID_INPUT', 'VALIDATED', 'CANCELED'] as const;
export type ActionStatus = (typeof actionStatuses)[number];

/** READ types only look (FIND, GET, estimates, previews, suggestions, validation); WRITE types change the account. */
export const accessMode = (type: string): 'READ' | 'WRITE' =>
  /_(FIND|GET|ESTIMATE|PREVIEW|SUGGEST|VALIDATE|GET_SHIPPING_RATES|GET_SHIPMENT_DOCS)$/.test(type) ? 'READ' : 'WRITE';

/** The kinds of account a type runs for (reference/service-clients.md, "Actions"). */
export type AccountKind = 'SELLER' | 'VENDOR' | 'ADS';
const vendorListingTypes = new Set(['MKT_LISTINGS_UPDATE', 'MKT_LISTINGS_DETAILS_UPDATE', 'MKT_LISTINGS_CREATE', 'MKT_LISTINGS_FIND', 'MKT_LISTINGS_PRODUCT_TYPES_FIND', 'MKT_LISTINGS_PRODUCT_TYPE_SUGGEST', 'MKT_LISTINGS_PRODUCT_TYPE_DEFINITION_FIND']);
export function accountKinds(type: string): AccountKind[] {
  if (type.startsWith('MKT_ADS_')) return ['ADS'];
  if (type.startsWith('MKT_VENDOR_')) return ['VENDOR'];
  if (type.startsWith('MKT_APLUS_') || vendorListingTypes.has(type)) return ['SELLER', 'VENDOR'];
  return ['SELLER'];
}

const sku = z.string().trim().min(1).max(40).describe('Seller SKU.');
const money = z.object({ amount: z.number().positive().max(1_000_000), currency: z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as USD') }).strict();

/**
 * The `details` schema of each type this server runs (Listings Items API 2021-08-01: patchListingsItem and
 * searchListingsItems; attribute names as the product type definitions name them; Product Type Definitions API
 * 2020-09-01: searchDefinitionsProductTypes, getDefinitionsProductType). A type without one is refused with a message that says so, in a dry run too.
 */
export const detailsSchemas: Partial<Record<ActionType, z.ZodType>> = {
  MKT_LISTINGS_PRICING_UPDATE: z.object({
    sku,
    price: money.describe('The new offer price (purchasable_offer our_price).'),
    minimumSellerAllowedPrice: money.optional(),
    maximumSellerAllowedPrice: money.optional(),
  }).strict()
    .refine((d) => !d.minimumSellerAllowedPrice || d.minimumSellerAllowedPrice.amount <= d.price.amount, { message: 'is above price', path: ['minimumSellerAllowedPrice'] })
    .refine((d) => !d.maximumSellerAllowedPrice || d.maximumSellerAllowedPrice.amount >= d.price.amount, { message: 'is below price', path: ['maximumSellerAllowedPrice'] }),
  MKT_LISTINGS_UPDATE: z.object({
    sku,
    productType: z.string().regex(/^[A-Z0-9_]{2,64}$/, 'a product type such as LUGGAGE'),
    patches: z.array(z.object({
      op: z.enum(['add', 'replace', 'merge', 'delete']),
      path: z.string().regex(/^\/attributes\/[a-z0-9_]+$/, 'a path such as /attributes/item_name'),
      value: z.array(z.record(z.string(), z.unknown())).optional(),
    }).strict().refine((p) => p.op === 'delete' || p.value !== undefined, { message: 'value is required unless op is delete', path: ['value'] })).min(1).max(100),
  }).strict(),
  MKT_LISTINGS_DETAILS_UPDATE: z.object({
    sku,
    productType: z.string().regex(/^[A-Z0-9_]{2,64}$/, 'a product type such as LUGGAGE'),
    languageTag: z.string().regex(/^[a-z]{2}_[A-Z]{2}$/, 'a language tag such as en_US'),
    itemName: z.string().trim().min(1).max(200).optional(),
    bulletPoints: z.array(z.string().trim().min(1).max(500)).min(1).max(10).optional(),
    description: z.string().trim().min(1).max(2000).optional(),
  }).strict().refine((d) => d.itemName !== undefined || d.bulletPoints !== undefined || d.description !== undefined, { message: 'give at least one of itemName, bulletPoints and description' }),
  MKT_LISTINGS_PRODUCT_TYPES_FIND: z.object({
    keywords: z.array(z.string().trim().min(1).max(100)).min(1).max(10).optional(),
    itemName: z.string().trim().min(1).max(500).optional().describe('Finds the product types suggested for an item of this name.'),
  }).strict().refine((d) => (d.keywords === undefined) !== (d.itemName === undefined), { message: 'give exactly one of keywords and itemName' }),
  MKT_LISTINGS_PRODUCT_TYPE_SUGGEST: z.object({
    itemName: z.string().trim().min(1).max(500).describe('The title of the item: the product types suggested for it.'),
  }).strict(),
  MKT_LISTINGS_PRODUCT_TYPE_DEFINITION_FIND: z.object({
    productType: z.string().regex(/^[A-Z0-9_]{2,64}$/, 'a product type such as LUGGAGE'),
    requirements: z.enum(['LISTING', 'LISTING_PRODUCT_ONLY', 'LISTING_OFFER_ONLY']).default('LISTING'),
    requirementsEnforced: z.enum(['ENFORCED', 'NOT_ENFORCED']).default('ENFORCED'),
    locale: z.string().regex(/^(DEFAULT|[a-z]{2}(_[A-Z]{2})?)$/, 'DEFAULT or a locale such as en_US').default('DEFAULT'),
  }).strict(),
  MKT_LISTINGS_FIND: z.object({
    skus: z.array(sku).min(1).max(20).optional().describe('At most 20; without, every listing, a page at a time.'),
    pageSize: z.number().int().min(1).max(20).default(10),
    pageToken: z.string().max(1024).optional(),
  }).strict(),
};
