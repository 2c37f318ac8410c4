import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleOf, type ActionDefinition } from '../../src/actions/definitions/define.ts';
import { ordersActions } from '../../src/actions/definitions/orders.ts';
import { pricingActions } from '../../src/actions/definitions/pricing.ts';
import { ConnectorError } from '../../src/connectors/connector-error.ts';
import { actionBench } from '../helpers/action-context.ts';

type Bench = Awaited<ReturnType<typeof actionBench>>;
const all = { ...pricingActions, ...ordersActions };
type Type = keyof typeof all;
const def = (type: Type): ActionDefinition => all[type]!;
const example = (type: Type) => exampleOf(def(type));
type Items = { items: Record<string, unknown>[] };

describe('pricing, fee, order, shipping and tracking actions', () => {
  let bench: Bench;
  beforeAll(async () => {
    bench = await actionBench();
  });
  afterAll(async () => {
    await bench.fake.close();
  });

  it('creates a listing that the fee estimate then knows (and did not before)', async () => {
    const before = await bench.run(def('MKT_LISTINGS_FEES_ESTIMATE'), {
      sku: 'ACM-PACK-DAY-BLK-2',
      price: { amount: 40, currency: 'USD' },
    });
    expect(before.status).toBe('BLOCKED_INVALID_INPUT');
    expect(before.error?.code).toBe('InvalidParameterValue');

    const created = await bench.run(def('MKT_LISTINGS_CREATE'), example('MKT_LISTINGS_CREATE'));
    expect(created.status).toBe('COMPLETED');
    expect(created.result).toMatchObject({ sku: 'ACM-PACK-DAY-BLK-2', submissionStatus: 'ACCEPTED', issues: [] });

    // 15 % referral of 40.00 = 6.00; FBA fee of the daypack (list price 49.99: the 40–80 band) = 4.76.
    const after = await bench.run(def('MKT_LISTINGS_FEES_ESTIMATE'), {
      sku: 'ACM-PACK-DAY-BLK-2',
      price: { amount: 40, currency: 'USD' },
    });
    expect(after.status).toBe('COMPLETED');
    expect(after.result).toMatchObject({ sku: 'ACM-PACK-DAY-BLK-2', totalFees: { amount: 10.76, currency: 'USD' } });
  });

  it('refuses a listing without the attributes its requirements need', async () => {
    const outcome = await bench.run(def('MKT_LISTINGS_CREATE'), {
      sku: 'ACM-NEW-1',
      productType: 'PACK',
      attributes: { item_name: [{ value: 'New pack' }] },
    });
    expect(outcome.status).toBe('BLOCKED_INVALID_INPUT');
    expect(
      (outcome.result as { issues: { attributeNames: string[] }[] }).issues.map((i) => i.attributeNames[0]),
    ).toEqual(['brand', 'condition_type', 'purchasable_offer']);
  });

  it('estimates the fees of the example', async () => {
    const outcome = await bench.run(def('MKT_LISTINGS_FEES_ESTIMATE'), example('MKT_LISTINGS_FEES_ESTIMATE'));
    expect(outcome.status).toBe('COMPLETED');
    expect(outcome.result).toMatchObject({
      totalFees: { amount: 10.76, currency: 'USD' },
      fees: [
        { feeType: 'ReferralFee', amount: 6 },
        { feeType: 'VariableClosingFee', amount: 0 },
        { feeType: 'PerItemFee', amount: 0 },
        { feeType: 'FBAFees', amount: 4.76 },
      ],
    });
  });

  it('estimates featured offer prices per SKU, partly when a SKU is unknown', async () => {
    const outcome = await bench.run(
      def('MKT_LISTINGS_FEATURED_PRICE_ESTIMATE'),
      example('MKT_LISTINGS_FEATURED_PRICE_ESTIMATE'),
    );
    expect(outcome.status).toBe('COMPLETED');
    // 97 % of the list prices 49.99 and 29.99.
    const prices = (outcome.result as Items).items.map(
      (i) =>
        (
          i.result as {
            featuredOfferExpectedPriceResults: { featuredOfferExpectedPrice: { listingPrice: { amount: number } } }[];
          }
        ).featuredOfferExpectedPriceResults[0]!.featuredOfferExpectedPrice.listingPrice.amount,
    );
    expect(prices).toEqual([48.49, 29.09]);

    const partial = await bench.run(def('MKT_LISTINGS_FEATURED_PRICE_ESTIMATE'), {
      skus: ['ACM-PACK-DAY-BLK', 'NO-SUCH-SKU'],
    });
    expect(partial.status).toBe('PARTIALLY_COMPLETED');
    expect((partial.result as Items).items.map((i) => [i.sku, i.ok, i.statusCode])).toEqual([
      ['ACM-PACK-DAY-BLK', true, 200],
      ['NO-SUCH-SKU', false, 404],
    ]);
  });

  it('finds competitive summaries, and is blocked when every ASIN is unknown', async () => {
    const outcome = await bench.run(
      def('MKT_LISTINGS_COMPETITIVE_SUMMARY_FIND'),
      example('MKT_LISTINGS_COMPETITIVE_SUMMARY_FIND'),
    );
    expect(outcome.status).toBe('COMPLETED');
    const first = (outcome.result as Items).items[0]!;
    expect(first).toMatchObject({
      asin: 'B0NB0P6V0A',
      ok: true,
      result: {
        asin: 'B0NB0P6V0A',
        marketplaceId: 'ATVPDKIKX0DER',
        referencePrices: [
          { name: 'CompetitivePriceThreshold', price: { amount: 44.99 } },
          { name: 'WasPrice', price: { amount: 49.99 } },
        ],
      },
    });

    const blocked = await bench.run(def('MKT_LISTINGS_COMPETITIVE_SUMMARY_FIND'), { asins: ['B000000000'] });
    expect(blocked.status).toBe('BLOCKED_INVALID_INPUT');
  });

  it('confirms a shipment once, and sends the feedback solicitation once', async () => {
    const confirmed = await bench.run(def('MKT_ORDERS_CONFIRM_SHIPMENT'), example('MKT_ORDERS_CONFIRM_SHIPMENT'));
    expect(confirmed).toMatchObject({
      status: 'COMPLETED',
      result: { orderId: '113-4419825-7310652', confirmed: true },
    });
    await expect(
      bench.run(def('MKT_ORDERS_CONFIRM_SHIPMENT'), example('MKT_ORDERS_CONFIRM_SHIPMENT')),
    ).rejects.toMatchObject({ kind: 'invalid-input', status: 400 });

    const sent = await bench.run(
      def('MKT_ORDERS_SOLICITATION_FEEDBACK_SEND'),
      example('MKT_ORDERS_SOLICITATION_FEEDBACK_SEND'),
    );
    expect(sent).toMatchObject({ status: 'COMPLETED', result: { sent: true } });
    await expect(
      bench.run(def('MKT_ORDERS_SOLICITATION_FEEDBACK_SEND'), example('MKT_ORDERS_SOLICITATION_FEEDBACK_SEND')),
    ).rejects.toBeInstanceOf(ConnectorError);
  });

  it('refuses a malformed order id like the real API', async () => {
    const error = await bench
      .context()
      .sp()
      .request('confirmShipment', {
        method: 'POST',
        path: '/orders/v0/orders/113-44198-7310652/shipmentConfirmation',
        body: {},
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect(error).toMatchObject({ kind: 'invalid-input', status: 400, code: 'InvalidInput' });
  });

  it("rates a package, buys the cheapest asked service, and reads the new shipment's label", async () => {
    const rates = await bench.run(def('MKT_ORDERS_GET_SHIPPING_RATES'), example('MKT_ORDERS_GET_SHIPPING_RATES'));
    expect(rates.status).toBe('COMPLETED');
    // 2.5 lb billed as 3 lb: base + 3 × per pound.
    expect(
      (rates.result as { rates: { serviceId: string; totalCharge: { amount: number } }[] }).rates.map((r) => [
        r.serviceId,
        r.totalCharge.amount,
      ]),
    ).toEqual([
      ['UPS_GROUND', 12.25],
      ['USPS_GROUND_ADVANTAGE', 11.5],
      ['SWA-US-GROUND', 9.75],
    ]);

    const bought = await bench.run(def('MKT_ORDERS_CREATE_SHIPMENT'), example('MKT_ORDERS_CREATE_SHIPMENT'));
    expect(bought.status).toBe('COMPLETED');
    const shipment = bought.result as {
      shipmentId: string;
      rate: { serviceId: string; totalCharge: { amount: number } };
      packages: { packageClientReferenceId: string; trackingId: string }[];
    };
    expect(shipment.shipmentId).toMatch(/^\d{14}$/);
    expect(shipment.rate).toMatchObject({ serviceId: 'UPS_GROUND', totalCharge: { amount: 12.25, currency: 'USD' } });
    expect(shipment.packages[0]!.trackingId).toMatch(/^1Z/);

    const docs = await bench.run(def('MKT_ORDERS_GET_SHIPMENT_DOCS'), {
      shipmentId: shipment.shipmentId,
      packageClientReferenceId: 'PKG-1',
      format: 'ZPL',
    });
    expect(docs).toMatchObject({
      status: 'COMPLETED',
      result: {
        shipmentId: shipment.shipmentId,
        packageDocumentDetail: {
          trackingId: shipment.packages[0]!.trackingId,
          packageDocuments: [{ type: 'LABEL', format: 'ZPL' }],
        },
      },
    });
  });

  it("reads the demo shipment's label, cancels the other, whose documents are then refused", async () => {
    const docs = await bench.run(def('MKT_ORDERS_GET_SHIPMENT_DOCS'), example('MKT_ORDERS_GET_SHIPMENT_DOCS'));
    expect(docs).toMatchObject({
      status: 'COMPLETED',
      result: {
        shipmentId: '87852211788104',
        packageDocumentDetail: { packageClientReferenceId: 'PKG-1', trackingId: '1Z999AA10123456784' },
      },
    });

    const canceled = await bench.run(def('MKT_ORDERS_CANCEL_SHIPMENT'), example('MKT_ORDERS_CANCEL_SHIPMENT'));
    expect(canceled).toMatchObject({ status: 'COMPLETED', result: { shipmentId: '87852211788105', canceled: true } });
    await expect(
      bench.run(def('MKT_ORDERS_GET_SHIPMENT_DOCS'), {
        shipmentId: '87852211788105',
        packageClientReferenceId: 'PKG-1',
      }),
    ).rejects.toMatchObject({ kind: 'invalid-input', status: 400 });
    await expect(bench.run(def('MKT_ORDERS_CANCEL_SHIPMENT'), { shipmentId: '99999999999999' })).rejects.toMatchObject({
      kind: 'not-found',
      status: 404,
    });
  });

  it('subscribes to tracking milestones per identifier, partly when one is already subscribed', async () => {
    const outcome = await bench.run(def('MKT_SHIPMENT_TRACKING_SUBSCRIBE'), example('MKT_SHIPMENT_TRACKING_SUBSCRIBE'));
    expect(outcome.status).toBe('COMPLETED');
    expect((outcome.result as Items).items.map((i) => i.ok)).toEqual([true, true]);

    const partial = await bench.run(def('MKT_SHIPMENT_TRACKING_SUBSCRIBE'), {
      destinationId: '3acafc7e-121b-1329-8ae8-1571be663aa2',
      trackingIds: [
        { kind: 'aftn', value: 'AFTN987654321' },
        { kind: 'id', value: 'TBA312345678901' },
      ],
    });
    expect(partial.status).toBe('PARTIALLY_COMPLETED');
    expect(
      (partial.result as Items).items.map((i) => [i.ok, (i.error as { status?: number } | undefined)?.status ?? null]),
    ).toEqual([
      [false, 409],
      [true, null],
    ]);
  });
});
