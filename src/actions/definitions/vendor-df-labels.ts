import { z } from 'zod';
import { completed, define, type ActionGroup } from './define.ts';
import {
  asin,
  checkTransaction,
  dfPurchaseOrderNumber,
  namesProduct,
  party,
  partyCode,
  productIds,
  submit,
  vendorSku,
} from './vendor-shared.ts';
import { ruled } from './rules.ts';

/** The base path of the DF Shipping API. */
export const SHIPPING = '/vendor/directFulfillment/shipping/2021-12-28';
const sequence = z.number().int().min(1).max(99_999).describe('The order line number (1, 2, …).');
const units = z.number().int().min(1).max(10_000);
/** An order line: its number, its product (ASIN or vendor SKU) and how many. */
export const item = ruled(
  z
    .object({ itemSequenceNumber: sequence, asin: asin.optional(), vendorSku: vendorSku.optional(), quantity: units })
    .strict(),
  namesProduct,
);
/** The vendor code of the order and the warehouse it ships from. */
export const parties = {
  sellingPartyId: partyCode.describe('The vendor code of the order.'),
  shipFromPartyId: partyCode.describe('The vendor warehouse code the order ships from.'),
};
/** A carton or pallet: its size, weight and the lines packed in it. */
export const container = z
  .object({
    containerIdentifier: z.string().trim().min(1).max(64),
    containerType: z.enum(['Carton', 'Pallet']).default('Carton'),
    trackingNumber: z.string().trim().min(1).max(64).optional(),
    weight: z.object({ value: z.number().positive().max(10_000), unit: z.enum(['KG', 'LB']) }).strict(),
    dimensions: z
      .object({
        length: z.number().positive().max(1000),
        width: z.number().positive().max(1000),
        height: z.number().positive().max(1000),
        unit: z.enum(['IN', 'CM']),
      })
      .strict()
      .optional(),
    items: z.array(item).min(1).max(100),
  })
  .strict();
const labelRequest = z
  .object({
    purchaseOrderNumber: dfPurchaseOrderNumber,
    ...parties,
    containers: z.array(container).min(1).max(50).optional(),
  })
  .strict();
const labelExample = {
  purchaseOrderNumber: 'ACDF0001',
  sellingPartyId: 'ACMEU',
  shipFromPartyId: 'ACMEWH1',
  containers: [
    {
      containerIdentifier: 'CTN-ACDF0001-1',
      weight: { value: 1.4, unit: 'KG' },
      items: [{ itemSequenceNumber: 1, vendorSku: 'ACM-PACK-DAY-BLK', quantity: 1 }],
    },
  ],
};

/** An order line as parsed. */
export type Item = z.output<typeof item>;
type Container = z.output<typeof container>;

/** A quantity in units (Each). */
export const each = (amount: number) => ({ amount, unitOfMeasure: 'Each' });
/** A Container of the DF shipping model, from ours. */
export const toContainer = (c: Container) => ({
  containerType: c.containerType,
  containerIdentifier: c.containerIdentifier,
  ...(c.trackingNumber ? { trackingNumber: c.trackingNumber } : {}),
  weight: { unitOfMeasure: c.weight.unit, value: String(c.weight.value) },
  ...(c.dimensions
    ? {
        dimensions: {
          length: String(c.dimensions.length),
          width: String(c.dimensions.width),
          height: String(c.dimensions.height),
          unitOfMeasure: c.dimensions.unit,
        },
      }
    : {}),
  packedItems: c.items.map((i) => ({
    itemSequenceNumber: i.itemSequenceNumber,
    ...productIds(i, 'buyerProductIdentifier'),
    packedQuantity: each(i.quantity),
  })),
});
/** The selling and ship-from parties of an order, as the upstream names them. */
export const orderParties = (d: { sellingPartyId: string; shipFromPartyId: string }) => ({
  sellingParty: party(d.sellingPartyId),
  shipFromParty: party(d.shipFromPartyId),
});
const labelBody = (d: z.output<typeof labelRequest>) => ({
  ...orderParties(d),
  ...(d.containers ? { containers: d.containers.map(toContainer) } : {}),
});
interface ShippingLabel {
  purchaseOrderNumber: string;
  labelFormat: string;
  labelData: unknown[];
}
/** getShippingLabel / createShippingLabels' answer, trimmed to the order, its format and the labels. */
const labelResult = (l: ShippingLabel) => ({
  purchaseOrderNumber: l.purchaseOrderNumber,
  labelFormat: l.labelFormat,
  labelData: l.labelData,
});
/** The path of an order's shipping label. */
const labelPath = (po: string) => `${SHIPPING}/shippingLabels/${encodeURIComponent(po)}`;

/**
 * The shipping label types (Vendor Direct Fulfillment Shipping 2021-12-28): createShippingLabels answers at once,
 * submitShippingLabelRequest is a submission that waits on its transaction, getShippingLabel reads a label.
 */
export const vendorDfLabelActions: ActionGroup = {
  MKT_VENDOR_DF_SHIPPING_LABELS_CREATE: define(labelRequest.meta({ examples: [labelExample] }), async (ctx, d) => {
    const { body } = await ctx.sp().request<ShippingLabel>('createShippingLabels', {
      method: 'POST',
      path: labelPath(d.purchaseOrderNumber),
      body: labelBody(d),
    });
    return completed(labelResult(body));
  }),
  MKT_VENDOR_DF_SHIPPING_LABEL_REQUESTS_SUBMIT: define(
    labelRequest.meta({
      examples: [{ purchaseOrderNumber: 'ACDF0002', sellingPartyId: 'ACMEU', shipFromPartyId: 'ACMEWH1' }],
    }),
    (ctx, d) =>
      submit(ctx, 'df', 'submitShippingLabelRequest', `${SHIPPING}/shippingLabels`, {
        shippingLabelRequests: [{ purchaseOrderNumber: d.purchaseOrderNumber, ...labelBody(d) }],
      }),
    checkTransaction('df'),
  ),
  MKT_VENDOR_DF_SHIPPING_LABEL_GET: define(
    z
      .object({ purchaseOrderNumber: dfPurchaseOrderNumber })
      .strict()
      .meta({ examples: [{ purchaseOrderNumber: 'ACDF0002' }] }),
    async (ctx, d) => {
      const { body } = await ctx
        .sp()
        .request<ShippingLabel>('getShippingLabel', { method: 'GET', path: labelPath(d.purchaseOrderNumber) });
      return completed(labelResult(body));
    },
  ),
};
