import type { FlatColumn } from '../../flat-file.ts';

const text = (name: string): FlatColumn => ({ name, type: 'text' });
const decimal = (name: string): FlatColumn => ({ name, type: 'decimal' });

/**
 * The fields of one promotion record (docs/promotions-format.md), named like the mkt_promotions columns in
 * camelCase. Dates stay text here (a marketplace-local day or a date-time with offset) and become local dates
 * downstream; `issues`, `customerSegments`, `additionalTiers` and `items` land as JSON text.
 */
export const promotionColumns: FlatColumn[] = [
  { name: 'promotionId', type: 'text', required: 'value' },
  text('trackingId'),
  text('promotionTitle'),
  text('promotionType'),
  text('couponType'),
  text('status'),
  text('startDate'),
  text('endDate'),
  text('eventId'),
  text('budgetType'),
  decimal('budgetValue'),
  text('budgetCurrency'),
  text('selectionId'),
  decimal('selectionRevisionId'),
  text('selectionType'),
  text('benefitDiscountType'),
  decimal('benefitPercentOff'),
  decimal('benefitAmountOff'),
  text('benefitCurrency'),
  decimal('benefitPerCustomerUses'),
  text('benefitStacking'),
  decimal('benefitQuantity'),
  text('purchaseReqQuantityType'),
  decimal('purchaseReqQuantity'),
  text('claimCodeType'),
  text('claimCodeValue'),
  text('displayOnWebsite'),
  decimal('upfrontFeeAmount'),
  text('upfrontFeeCurrency'),
  text('upfrontFeeFrequency'),
  decimal('variableFeePct'),
  decimal('variableFeeCapAmount'),
  text('variableFeeCapCurrency'),
  text('latestRevisionStatus'),
  text('createdDate'),
  text('lastUpdatedDate'),
  { name: 'lastSyncedAt', type: 'timestamp' },
  text('issues'),
  text('customerSegments'),
  text('additionalTiers'),
  text('items'),
];

/** Date fields of a promotion: `YYYY-MM-DD` (marketplace-local) or an ISO 8601 date-time with offset. */
export const promotionDateFields = ['startDate', 'endDate', 'createdDate', 'lastUpdatedDate'];

/** Promotion fields whose value (array or object) is kept as JSON. */
export const promotionJsonFields = ['issues', 'customerSegments', 'additionalTiers'];

/** Number fields of an item of `items` (numbers, or numeric strings). */
export const itemNumberFields = [
  'benefitPercentOff',
  'benefitAmountOff',
  'benefitFixedPrice',
  'benefitPerCustomerUses',
  'budgetValue',
];

/** Text fields of an item of `items`; `asin` and `sku` are required. */
export const itemTextFields = [
  'asin',
  'sku',
  'benefitType',
  'benefitDiscountType',
  'benefitDiscountCurrency',
  'benefitFixedPriceCurrency',
  'budgetType',
  'budgetCurrency',
];
