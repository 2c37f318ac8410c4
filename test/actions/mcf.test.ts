import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleOf, type ActionDefinition } from '../../src/actions/definitions/define.ts';
import { mcfActions } from '../../src/actions/definitions/mcf.ts';
import { ConnectorError } from '../../src/connectors/connector-error.ts';
import { actionBench } from '../helpers/action-context.ts';

type Bench = Awaited<ReturnType<typeof actionBench>>;
const def = (type: keyof typeof mcfActions): ActionDefinition => mcfActions[type]!;
const example = (type: keyof typeof mcfActions) => exampleOf(def(type));
const address = {
  name: 'Sam Rivera',
  addressLine1: '742 Evergreen Terrace',
  city: 'Portland',
  stateOrRegion: 'OR',
  postalCode: '97205',
  countryCode: 'US',
};
type Order = {
  fulfillmentOrder: Record<string, unknown>;
  fulfillmentOrderItems: Record<string, unknown>[];
  fulfillmentShipments: Record<string, unknown>[];
  returnItems: Record<string, unknown>[];
  returnAuthorizations: unknown[];
};

describe('multi-channel fulfillment actions (Fulfillment Outbound API 2020-07-01)', () => {
  let bench: Bench;
  beforeAll(async () => {
    bench = await actionBench();
  });
  afterAll(async () => {
    await bench.fake.close();
  });

  it('finds the shipped demo order, then adds a return to it that the next find shows', async () => {
    const found = await bench.run(def('MKT_MCF_ORDERS_FIND'), example('MKT_MCF_ORDERS_FIND'));
    expect(found.status).toBe('COMPLETED');
    const order = found.result as Order;
    expect(order.fulfillmentOrder).toMatchObject({
      sellerFulfillmentOrderId: 'MCF-DEMO-0001',
      fulfillmentOrderStatus: 'Complete',
      marketplaceId: 'ATVPDKIKX0DER',
    });
    expect(order.fulfillmentOrderItems.map((i) => [i.sellerSku, i.sellerFulfillmentOrderItemId, i.quantity])).toEqual([
      ['ACM-PACK-DAY-BLK', 'MCF-DEMO-0001-1', 2],
      ['ACM-LAMP-HEAD-300', 'MCF-DEMO-0001-2', 1],
    ]);
    expect(order.fulfillmentShipments[0]).toMatchObject({
      amazonShipmentId: 'DbW3pLq7N',
      fulfillmentShipmentStatus: 'SHIPPED',
    });
    expect(order.returnItems).toEqual([]);

    const returned = await bench.run(def('MKT_MCF_RETURNS_ADD'), example('MKT_MCF_RETURNS_ADD'));
    expect(returned.status).toBe('COMPLETED');
    const result = returned.result as {
      items: Record<string, unknown>[];
      returnAuthorizations: Record<string, unknown>[];
    };
    expect(result.items).toEqual([
      {
        ok: true,
        returnItemId: 'RET-MCF-DEMO-0001-1',
        orderItemId: 'MCF-DEMO-0001-1',
        status: 'New',
        returnAuthorizationId: result.returnAuthorizations[0]!.returnAuthorizationId,
      },
    ]);
    expect(result.returnAuthorizations[0]).toMatchObject({
      fulfillmentCenterId: 'TUS1',
      returnToAddress: { city: 'Phoenix', stateOrRegion: 'AZ' },
    });

    const after = (await bench.run(def('MKT_MCF_ORDERS_FIND'), { sellerFulfillmentOrderId: 'MCF-DEMO-0001' }))
      .result as Order;
    expect(after.returnItems).toMatchObject([
      {
        sellerReturnItemId: 'RET-MCF-DEMO-0001-1',
        sellerReturnReasonCode: 'CR-DEFECTIVE',
        amazonShipmentId: 'DbW3pLq7N',
        status: 'New',
      },
    ]);
    expect(after.returnAuthorizations).toHaveLength(1);
  });

  it('returns part of a batch (an unknown reason code), then refuses units already all returned', async () => {
    const partial = await bench.run(def('MKT_MCF_RETURNS_ADD'), {
      sellerFulfillmentOrderId: 'MCF-DEMO-0001',
      items: [
        { returnItemId: 'RET-2', orderItemId: 'MCF-DEMO-0001-1', reasonCode: 'CR-UNWANTED_ITEM' },
        { returnItemId: 'RET-3', orderItemId: 'MCF-DEMO-0001-2', reasonCode: 'CR-NOT-A-CODE' },
      ],
    });
    expect(partial.status).toBe('PARTIALLY_COMPLETED');
    const items = (partial.result as { items: Record<string, unknown>[] }).items;
    expect(items.map((i) => [i.returnItemId, i.ok])).toEqual([
      ['RET-2', true],
      ['RET-3', false],
    ]);
    expect(items[1]!.invalidItemReason).toEqual({
      invalidItemReasonCode: 'InvalidValues',
      description: 'Invalid returnReasonCode CR-NOT-A-CODE.',
    });

    // Two daypacks shipped, two returned (the example's and RET-2): a third is refused.
    const none = await bench.run(def('MKT_MCF_RETURNS_ADD'), {
      sellerFulfillmentOrderId: 'MCF-DEMO-0001',
      items: [{ returnItemId: 'RET-4', orderItemId: 'MCF-DEMO-0001-1', reasonCode: 'CR-DEFECTIVE' }],
    });
    expect(none.status).toBe('BLOCKED_INVALID_INPUT');
    expect((none.result as { items: Record<string, unknown>[] }).items[0]!.invalidItemReason).toMatchObject({
      invalidItemReasonCode: 'NoReturnableQuantity',
    });
  });

  it('adds, updates and cancels orders; finds see each change', async () => {
    const added = await bench.run(def('MKT_MCF_ORDERS_ADD'), example('MKT_MCF_ORDERS_ADD'));
    expect(added.status).toBe('COMPLETED');
    const order = added.result as Order;
    expect(order.fulfillmentOrder).toMatchObject({
      sellerFulfillmentOrderId: 'WEB-10472',
      displayableOrderId: 'WEB-10472',
      fulfillmentOrderStatus: 'Received',
      shippingSpeedCategory: 'Expedited',
      fulfillmentAction: 'Ship',
      displayableOrderComment: 'Thank you for your order!',
    });
    expect(
      order.fulfillmentOrderItems.map((i) => [i.sellerFulfillmentOrderItemId, i.quantity, i.cancelledQuantity]),
    ).toEqual([
      ['ACM-PACK-DAY-BLK', 1, 0],
      ['ACM-LAMP-HEAD-300', 2, 0],
    ]);
    // The same order again is accepted as it stands.
    expect((await bench.run(def('MKT_MCF_ORDERS_ADD'), example('MKT_MCF_ORDERS_ADD'))).status).toBe('COMPLETED');

    const updated = await bench.run(def('MKT_MCF_ORDERS_UPDATE'), example('MKT_MCF_ORDERS_UPDATE'));
    expect(updated.status).toBe('COMPLETED');
    expect((updated.result as Order).fulfillmentOrder).toMatchObject({
      sellerFulfillmentOrderId: 'MCF-DEMO-0002',
      displayableOrderComment: 'Happy birthday from the Acme team!',
      shippingSpeedCategory: 'Expedited',
      fulfillmentAction: 'Hold',
      fulfillmentOrderStatus: 'Received',
    });

    const start = new Date(bench.clock.now()).toISOString();
    await bench.run(def('MKT_MCF_ORDERS_ADD'), {
      sellerFulfillmentOrderId: 'WEB-20001',
      fulfillmentAction: 'Hold',
      destinationAddress: address,
      items: [{ sku: 'ACM-BOTTLE-1L-WHT', quantity: 3, orderItemId: 'line-1' }],
    });
    await bench.run(def('MKT_MCF_ORDERS_UPDATE'), {
      sellerFulfillmentOrderId: 'WEB-20001',
      fulfillmentAction: 'Ship',
      items: [{ orderItemId: 'line-1', quantity: 1 }],
    });
    const seen = (await bench.run(def('MKT_MCF_ORDERS_FIND'), { sellerFulfillmentOrderId: 'WEB-20001' }))
      .result as Order;
    expect(seen.fulfillmentOrder).toMatchObject({ fulfillmentAction: 'Ship', fulfillmentOrderStatus: 'Received' });
    expect(seen.fulfillmentOrderItems[0]).toMatchObject({ sellerSku: 'ACM-BOTTLE-1L-WHT', quantity: 1 });

    const cancelled = await bench.run(def('MKT_MCF_ORDERS_CANCEL'), example('MKT_MCF_ORDERS_CANCEL'));
    expect(cancelled.status).toBe('COMPLETED');
    expect((cancelled.result as Order).fulfillmentOrder).toMatchObject({
      sellerFulfillmentOrderId: 'MCF-DEMO-0003',
      fulfillmentOrderStatus: 'Cancelled',
    });
    expect((cancelled.result as Order).fulfillmentOrderItems[0]).toMatchObject({ quantity: 2, cancelledQuantity: 2 });

    // Orders whose status changed since the start: the two created ones and the cancelled one, not the shipped demo
    // order.
    const listed = await bench.run(def('MKT_MCF_ORDERS_FIND'), { queryStartDate: start });
    const ids = (
      listed.result as { fulfillmentOrders: { sellerFulfillmentOrderId: string }[]; nextToken: string | null }
    ).fulfillmentOrders.map((o) => o.sellerFulfillmentOrderId);
    expect(ids).toEqual(expect.arrayContaining(['WEB-20001', 'MCF-DEMO-0003']));
    expect(ids).not.toContain('MCF-DEMO-0001');
    expect((listed.result as { nextToken: string | null }).nextToken).toBeNull();
  });

  it('refuses a SKU the seller does not ship through FBA, unknown orders, and cancelling a shipped order', async () => {
    const refused = bench.run(def('MKT_MCF_ORDERS_ADD'), {
      sellerFulfillmentOrderId: 'WEB-30001',
      destinationAddress: address,
      items: [{ sku: 'ACM-MUG-12-BLK', quantity: 1 }],
    });
    await expect(refused).rejects.toBeInstanceOf(ConnectorError);
    await expect(refused).rejects.toMatchObject({ kind: 'invalid-input', status: 400, code: 'InvalidInput' });
    await expect(refused).rejects.toThrow('the SellerSKU for Item Id: ACM-MUG-12-BLK is invalid.');
    await expect(
      bench.run(def('MKT_MCF_ORDERS_CANCEL'), { sellerFulfillmentOrderId: 'NO-SUCH-ORDER' }),
    ).rejects.toMatchObject({ kind: 'not-found', status: 404 });
    await expect(
      bench.run(def('MKT_MCF_ORDERS_CANCEL'), { sellerFulfillmentOrderId: 'MCF-DEMO-0001' }),
    ).rejects.toMatchObject({ kind: 'invalid-input', status: 400 });
    // A return of an order not shipped yet: each unit refused.
    const early = await bench.run(def('MKT_MCF_RETURNS_ADD'), {
      sellerFulfillmentOrderId: 'WEB-10472',
      items: [{ returnItemId: 'RET-9', orderItemId: 'ACM-PACK-DAY-BLK', reasonCode: 'CR-DEFECTIVE' }],
    });
    expect(early.status).toBe('BLOCKED_INVALID_INPUT');
    expect((early.result as { items: Record<string, unknown>[] }).items[0]!.invalidItemReason).toMatchObject({
      invalidItemReasonCode: 'NoCompletedShipItems',
    });
    // Our own schema already refuses an address without a city.
    expect(
      def('MKT_MCF_ORDERS_PREVIEW').schema.safeParse({
        address: { ...address, city: undefined },
        items: [{ sku: 'ACM-PACK-DAY-BLK', quantity: 1 }],
      }).success,
    ).toBe(false);
  });

  it('previews fees in the seller currency, delivery offers, features and return reason codes', async () => {
    const preview = await bench.run(def('MKT_MCF_ORDERS_PREVIEW'), example('MKT_MCF_ORDERS_PREVIEW'));
    expect(preview.status).toBe('COMPLETED');
    const previews = (preview.result as { previews: Record<string, unknown>[] }).previews;
    // The daypack's FBA fee is $4.76 (under $80); MCF charges 1.6× for Standard and 2.2× for Expedited, per unit: 2 ×
    // 7.62 and 2 × 10.47.
    expect(previews.map((p) => [p.shippingSpeedCategory, p.isFulfillable, p.estimatedFees])).toEqual([
      ['Standard', true, [{ name: 'FBAPerUnitFulfillmentFee', amount: { amount: 15.24, currency: 'USD' } }]],
      ['Expedited', true, [{ name: 'FBAPerUnitFulfillmentFee', amount: { amount: 20.94, currency: 'USD' } }]],
    ]);
    expect((previews[0]!.shipments as { items: unknown[] }[])[0]!.items).toEqual([
      { sku: 'ACM-PACK-DAY-BLK', quantity: 2 },
    ]);

    const mixed = await bench.run(def('MKT_MCF_ORDERS_PREVIEW'), {
      address,
      items: [
        { sku: 'ACM-PACK-DAY-BLK', quantity: 1 },
        { sku: 'ACM-MUG-12-BLK', quantity: 1 },
      ],
      shippingSpeedCategories: ['Priority'],
    });
    expect((mixed.result as { previews: Record<string, unknown>[] }).previews[0]).toMatchObject({
      isFulfillable: false,
      unfulfillableItems: [{ sku: 'ACM-MUG-12-BLK', quantity: 1, reasons: ['InvalidSKU'] }],
      orderUnfulfillableReasons: ['InvalidSKU'],
    });

    const offers = await bench.run(def('MKT_MCF_DELIVERY_OFFERS_PREVIEW'), example('MKT_MCF_DELIVERY_OFFERS_PREVIEW'));
    expect(offers.status).toBe('COMPLETED');
    const offer = (offers.result as { deliveryOffers: { earliest: string; latest: string; message: string }[] })
      .deliveryOffers[0]!;
    expect(Date.parse(offer.latest)).toBeGreaterThan(Date.parse(offer.earliest));
    expect(offer.message).toMatch(/^Get it as soon as /);

    const features = await bench.run(
      def('MKT_MCF_FEATURES_MARKETPLACE_FIND'),
      example('MKT_MCF_FEATURES_MARKETPLACE_FIND'),
    );
    expect(
      (features.result as { features: { featureName: string; sellerEligible: boolean }[] }).features.map((f) => [
        f.featureName,
        f.sellerEligible,
      ]),
    ).toEqual([
      ['BLOCK_AMZL', true],
      ['BLANK_BOX', true],
      ['OVERBOX', false],
      ['PACKING_SLIP', true],
      ['SIGNATURE_CONFIRMATION', true],
    ]);

    const sku = await bench.run(def('MKT_MCF_FEATURES_SKU_FIND'), example('MKT_MCF_FEATURES_SKU_FIND'));
    expect(sku.result).toMatchObject({
      marketplaceId: 'ATVPDKIKX0DER',
      featureName: 'BLANK_BOX',
      isEligible: true,
      ineligibleReasons: [],
      sellerSku: 'ACM-PACK-DAY-BLK',
      fnSku: 'X00DDWP08B',
      asin: 'B0NB0P6V0A',
    });
    const oversize = await bench.run(def('MKT_MCF_FEATURES_SKU_FIND'), {
      featureName: 'BLANK_BOX',
      sku: 'ACM-PACK-65L-GRY',
    });
    expect(oversize.result).toEqual({
      marketplaceId: 'ATVPDKIKX0DER',
      featureName: 'BLANK_BOX',
      isEligible: false,
      ineligibleReasons: ['SKU_NOT_ELIGIBLE'],
    });

    const codes = await bench.run(
      def('MKT_MCF_RETURNS_REASON_CODES_FIND'),
      example('MKT_MCF_RETURNS_REASON_CODES_FIND'),
    );
    const details = (codes.result as { reasonCodeDetails: Record<string, string>[] }).reasonCodeDetails;
    expect(details).toHaveLength(12);
    expect(details[2]).toEqual({
      returnReasonCode: 'CR-DEFECTIVE',
      description: 'Defective/Does not work properly',
      translatedDescription: 'Defective/Does not work properly',
    });
  });
});
