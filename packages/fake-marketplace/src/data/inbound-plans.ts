import { ASINS, fnskuOf, listedIn } from './catalog.ts';
import { Rng } from './random.ts';
import { localMidnight, type FakeSeller } from './sellers.ts';
import type { FakeInboundPlan } from './types.ts';

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
/** A UUID-shaped id, fixed by its parts. */
const uuidOf = (rng: Rng) =>
  `${rng.id(8, '0123456789abcdef')}-${rng.id(4, '0123456789abcdef')}-4${rng.id(3, '0123456789abcdef')}-9${rng.id(3, '0123456789abcdef')}-${rng.id(12, '0123456789abcdef')}`;

const SOURCE = {
  US: {
    name: 'Acme Outdoor Fulfillment',
    companyName: 'Acme Outdoor Inc.',
    addressLine1: '1450 Industrial Pkwy',
    addressLine2: 'Dock 4',
    city: 'Reno',
    stateOrProvinceCode: 'NV',
    postalCode: '89502',
    countryCode: 'US',
    phoneNumber: '7755550142',
    email: 'inbound@acme-outdoor.example',
  },
  DE: {
    name: 'Acme Outdoor Logistik',
    companyName: 'Acme Outdoor GmbH',
    addressLine1: 'Industriestraße 8',
    city: 'Leipzig',
    stateOrProvinceCode: 'SN',
    postalCode: '04129',
    countryCode: 'DE',
    phoneNumber: '+49341555014',
    email: 'inbound@acme-outdoor.example',
  },
};

/**
 * FBA inbound plans, one every three weeks since the seller opened: the plan ACTIVE while its shipment is WORKING,
 * then SHIPPED; the shipment WORKING, SHIPPED, RECEIVING, CLOSED as days pass; two or three SKUs a shipment.
 */
export function inboundPlans(seller: FakeSeller, asOf: number): FakeInboundPlan[] {
  const opened = localMidnight(seller.openedOn, seller.timezone);
  const fba = listedIn(seller.currency).filter((p) => p.only !== 'Merchant');
  const plans: FakeInboundPlan[] = [];
  for (let k = 0; opened + k * 21 * DAY <= asOf; k++) {
    const rng = new Rng([seller.seed, 'inbound', k]);
    const created = opened + k * 21 * DAY + rng.int(8, 20) * 3_600_000;
    if (created > asOf) break;
    const age = (asOf - created) / DAY;
    const shipmentStatus = age < 3 ? 'WORKING' : age < 7 ? 'SHIPPED' : age < 12 ? 'RECEIVING' : 'CLOSED';
    const updated = iso(Math.min(asOf, created + (age < 3 ? 0.1 : age < 7 ? 3 : age < 12 ? 7 : 12) * DAY));
    const planId = `wf${uuidOf(rng)}`;
    const shipmentId = `sh${uuidOf(rng)}`;
    const placementOptionId = `pl${uuidOf(rng)}`;
    const skus = [...new Set([rng.pick(fba), rng.pick(fba), rng.pick(fba)].map((p) => p.sku))];
    const items = skus.map((sku) => ({
      asin: ASINS.get(sku)!,
      fnsku: fnskuOf(sku),
      msku: sku,
      quantity: rng.int(2, 12) * 6,
      labelOwner: 'SELLER',
      prepInstructions: [],
    }));
    const name = `FBA (${iso(created).slice(0, 10)})`;
    plans.push({
      plan: {
        inboundPlanId: planId,
        name,
        createdAt: iso(created),
        lastUpdatedAt: updated,
        status: shipmentStatus === 'WORKING' ? 'ACTIVE' : 'SHIPPED',
        marketplaceIds: [seller.marketplaceId],
        sourceAddress: SOURCE[seller.countryCode],
        packingOptions: [],
        placementOptions: [{ placementOptionId, status: 'ACCEPTED' }],
        shipments: [{ shipmentId, status: shipmentStatus }],
      },
      shipments: [
        {
          shipment: {
            shipmentId,
            name: `${name}-AMAZON_OPTIMIZED`,
            status: shipmentStatus,
            placementOptionId,
            source: { sourceType: 'SELLER_FACILITY', address: SOURCE[seller.countryCode] },
            dates: { readyToShipWindow: { start: iso(created + 2 * DAY), end: iso(created + 2.4 * DAY) } },
            destination: {
              destinationType: 'AMAZON_OPTIMIZED',
              warehouseId: seller.countryCode === 'US' ? 'ONT8' : 'LEJ1',
            },
            ...(shipmentStatus === 'WORKING' ? {} : { shipmentConfirmationId: `FBA${rng.id(9)}` }),
          },
          items,
        },
      ],
    });
  }
  return plans.reverse();
}
