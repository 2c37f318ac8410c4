import { isOversize, listedIn, product } from './catalog.ts';
import { Rng } from './random.ts';
import { localDate, localMidnight, type FakeSeller } from './sellers.ts';

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const WAREHOUSE = {
  name: 'AWD IUSD',
  addressLine1: '4200 Logistics Way',
  city: 'Stockton',
  county: 'San Joaquin',
  stateOrRegion: 'CA',
  postalCode: '95206',
  countryCode: 'US',
};
const ORIGIN = {
  name: 'Acme Outdoor',
  addressLine1: '12 Harbor Rd',
  addressLine2: 'Unit 4',
  city: 'Oakland',
  stateOrRegion: 'CA',
  postalCode: '94607',
  countryCode: 'US',
  phoneNumber: '+15105550100',
};
const FC = {
  name: 'Amazon.com Services LLC ONT8',
  addressLine1: '24300 Nandina Ave',
  city: 'Moreno Valley',
  stateOrRegion: 'CA',
  postalCode: '92551',
  countryCode: 'US',
};

/** The SKUs the seller keeps in AWD: a fixed share of its FBA products. */
const awdSkus = (seller: FakeSeller) =>
  listedIn(seller.currency)
    .filter((p) => p.only !== 'Merchant' && new Rng([seller.seed, 'awd-sku', p.sku]).chance(0.35))
    .map((p) => p.sku);

/** A case of a SKU: units per case by size. */
const casePackage = (sku: string, count: number) => {
  const units = isOversize(product(sku)) ? 2 : 4;
  return {
    count,
    units,
    package: {
      count,
      distributionPackage: {
        type: 'CASE',
        contents: { packages: [], products: [{ sku, quantity: units }] },
        measurements: {
          weight: { weight: units === 2 ? 14.8 : 11.2, unitOfMeasurement: 'KILOGRAMS' },
          dimensions: { length: 60, width: 40, height: 40, unitOfMeasurement: 'CENTIMETERS' },
        },
      },
    },
  };
};

/** Events every `every` days since the seller opened, created by `asOf`: their index, time and stream. */
function events(seller: FakeSeller, kind: string, every: number, asOf: number): { k: number; at: number; rng: Rng }[] {
  if (!seller.awd) return [];
  const opened = localMidnight(seller.openedOn, seller.timezone);
  const out = [];
  for (let k = 0; opened + k * every * DAY <= asOf; k++) {
    const rng = new Rng([seller.seed, kind, k]);
    const at = opened + k * every * DAY + rng.int(9, 18) * 3_600_000;
    if (at <= asOf) out.push({ k, at, rng });
  }
  return out;
}

/** The stage a shipment has reached `age` days after its creation. */
const stage = (age: number, stages: [number, string][]) => stages.filter(([days]) => age >= days).at(-1)![1];

/** AWD listInventory records: on-hand and inbound units per AWD SKU, moving from day to day. */
export function awdInventory(seller: FakeSeller, asOf: number): Record<string, unknown>[] {
  if (!seller.awd) return [];
  const day = localDate(asOf, seller.timezone);
  return awdSkus(seller).map((sku) => {
    const rng = new Rng([seller.seed, 'awd-inventory', sku, day]);
    const available = rng.int(0, 60);
    const reserved = rng.int(0, 12);
    const expiring = rng.chance(0.2)
      ? [{ expiration: iso(asOf + rng.int(60, 400) * DAY), onhandQuantity: rng.int(1, available + reserved) }]
      : [];
    return {
      sku,
      totalOnhandQuantity: available + reserved,
      totalInboundQuantity: rng.chance(0.3) ? rng.int(4, 80) : 0,
      inventoryDetails: {
        availableDistributableQuantity: available,
        reservedDistributableQuantity: reserved,
        replenishmentQuantity: rng.int(0, 8),
      },
      ...(expiring.length ? { expirationDetails: expiring } : {}),
    };
  });
}

/** AWD inbound shipments (one a month) as getInboundShipment answers them: CREATED, SHIPPED, RECEIVING, then CLOSED. */
export function awdInboundShipments(seller: FakeSeller, asOf: number): Record<string, unknown>[] {
  return events(seller, 'awd-inbound', 30, asOf).map(({ k, at, rng }) => {
    const status = stage((asOf - at) / DAY, [
      [0, 'CREATED'],
      [2, 'SHIPPED'],
      [6, 'RECEIVING'],
      [11, 'CLOSED'],
    ]);
    const skus = [...new Set([rng.pick(awdSkus(seller)), rng.pick(awdSkus(seller))])].filter(Boolean);
    const cases = skus.map((sku) => casePackage(sku, rng.int(5, 30)));
    const received = status === 'CLOSED' || status === 'RECEIVING';
    return {
      shipmentId: `STAR-AWD-${iso(at).slice(5, 10).replace('-', '')}-${k}`,
      orderId: `AWD-INB-${iso(at).slice(0, 10).replace(/-/g, '')}`,
      externalReferenceId: `ACME-PO-${3000 + k}`,
      shipmentStatus: status,
      carrierCode: { carrierCodeType: 'SCAC', carrierCodeValue: 'ODFL' },
      trackingId: `ODFL${rng.digits(10)}`,
      shipBy: iso(at + 3 * DAY),
      destinationRegion: 'us-west',
      warehouseReferenceId: `IUSD-${rng.digits(4)}`,
      destinationAddress: WAREHOUSE,
      originAddress: ORIGIN,
      shipmentContainerQuantities: cases.map((c) => c.package),
      shipmentSkuQuantities: cases.map((c, i) => ({
        sku: skus[i]!,
        expectedQuantity: { quantity: c.count * c.units, unitOfMeasurement: 'PRODUCT_UNITS' },
        ...(received
          ? {
              receivedQuantity: {
                quantity: c.count * c.units - (status === 'CLOSED' && rng.chance(0.2) ? 2 : 0),
                unitOfMeasurement: 'PRODUCT_UNITS',
              },
            }
          : {}),
      })),
      receivedQuantity: [
        { quantity: received ? cases.reduce((s, c) => s + c.count, 0) : 0, unitOfMeasurement: 'CASES' },
      ],
      createdAt: iso(at),
      updatedAt: iso(Math.min(asOf, at + (status === 'CLOSED' ? 11 : 1) * DAY)),
    };
  });
}

/** AWD outbound orders to FBA (every 15 days): eligible, requested and shipped stages, with their shipments. */
export function awdOutboundOrders(seller: FakeSeller, asOf: number): Record<string, unknown>[] {
  return events(seller, 'awd-outbound', 15, asOf).map(({ at, rng }) => {
    const done = asOf - at > 10 * DAY;
    const cases = [...new Set([rng.pick(awdSkus(seller)), rng.pick(awdSkus(seller))])]
      .filter(Boolean)
      .map((sku) => ({ sku, ...casePackage(sku, rng.int(4, 12)) }));
    const products = cases.map((c) => ({ sku: c.sku, quantity: c.count * c.units }));
    const orderId = `AWD-OUT-${iso(at).slice(0, 10).replace(/-/g, '')}`;
    return {
      orderId,
      orderStatus: done ? 'SUCCESS' : 'CONFIRMED',
      createdAt: iso(at),
      confirmedOn: iso(at + 1_800_000),
      updatedAt: iso(Math.min(asOf, at + (done ? 10 : 1) * DAY)),
      orderPreferences: [{ orderPreference: 'PARTIAL_ORDER', orderPreferenceValue: 'UNSET' }],
      executionErrors: [],
      eligibleProductsToOutbound: products,
      productsToOutbound: products,
      shippedOutboundProducts: done ? products : [],
      eligiblePackagesToOutbound: cases.map((c) => c.package),
      packagesToOutbound: cases.map((c) => c.package),
      shippedOutboundPackages: done ? cases.map((c) => c.package) : [],
      outboundShipments: [
        {
          shipmentId: `${orderId}-1`,
          orderId,
          shipmentStatus: done ? 'CLOSED' : 'CREATED',
          createdAt: iso(at + DAY),
          updatedAt: iso(Math.min(asOf, at + (done ? 10 : 1) * DAY)),
          destinationAddress: FC,
          originAddress: WAREHOUSE,
          shipmentProductQuantities: products,
          shipmentPackageQuantities: cases.map((c) => c.package),
        },
      ],
    };
  });
}

/** AWD replenishment orders (every 20 days): products moved from AWD to FBA, with their shipments. */
export function awdReplenishmentOrders(seller: FakeSeller, asOf: number): Record<string, unknown>[] {
  return events(seller, 'awd-replenishment', 20, asOf).map(({ at, rng }) => {
    const done = asOf - at > 9 * DAY;
    const products = [...new Set([rng.pick(awdSkus(seller)), rng.pick(awdSkus(seller))])]
      .filter(Boolean)
      .map((sku) => ({ sku, quantity: rng.int(2, 12) * 4 }));
    const orderId = `AWD-REPL-${iso(at).slice(0, 10).replace(/-/g, '')}`;
    return {
      orderId,
      status: done ? 'SUCCESS' : 'CONFIRMED',
      createdAt: iso(at),
      confirmedOn: iso(at + 5000),
      updatedAt: iso(Math.min(asOf, at + (done ? 9 : 1) * DAY)),
      eligibleProducts: products,
      products,
      shippedProducts: done ? products : [],
      distributionIneligibleReasons: [],
      outboundShipments: [
        {
          shipmentId: `FBA${rng.id(9)}`,
          orderId,
          shipmentStatus: done ? 'CLOSED' : 'CREATED',
          createdAt: iso(at + DAY),
          updatedAt: iso(Math.min(asOf, at + (done ? 9 : 1) * DAY)),
        },
      ],
    };
  });
}
