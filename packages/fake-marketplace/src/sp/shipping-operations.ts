import { invalidInput, SpError } from './sp-error.ts';
import type { SpContext, SpRoute } from './sp-routes.ts';

/** A shipment bought through Amazon Shipping v2 purchaseShipment (or seeded: see `seed`). */
interface Shipment {
  shipmentId: string;
  orderId: string | null;
  carrierId: string;
  packages: { packageClientReferenceId: string; trackingId: string }[];
  canceled: boolean;
}
/** The rates of one getRates answer, kept under its request token for purchaseShipment. */
interface Quote {
  orderId: string | null;
  packages: string[];
  rates: { rateId: string; carrierId: string; serviceId: string }[];
}

const ORDER_ID = /^\d{3}-\d{7}-\d{7}$/;
const SERVICES = [
  {
    carrierId: 'UPS',
    carrierName: 'UPS',
    serviceId: 'UPS_GROUND',
    serviceName: 'UPS Ground',
    baseCents: 895,
    perLbCents: 110,
    days: [3, 5],
  },
  {
    carrierId: 'USPS',
    carrierName: 'USPS',
    serviceId: 'USPS_GROUND_ADVANTAGE',
    serviceName: 'USPS Ground Advantage',
    baseCents: 745,
    perLbCents: 135,
    days: [2, 5],
  },
  {
    carrierId: 'AMZN_US',
    carrierName: 'Amazon Shipping',
    serviceId: 'SWA-US-GROUND',
    serviceName: 'Amazon Shipping Ground',
    baseCents: 690,
    perLbCents: 95,
    days: [2, 4],
  },
] as const;
const DAY = 86_400_000;

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const hex = (n: number) => crypto.randomUUID().replaceAll('-', '').toUpperCase().slice(0, n);
const digits = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    i === 0 ? 1 + Math.floor(Math.random() * 9) : Math.floor(Math.random() * 10),
  ).join('');

/** The 400 of a malformed order id (every orders, solicitations and shipping operation checks it first). */
export function requireOrderId(orderId: unknown): string {
  if (typeof orderId !== 'string' || !ORDER_ID.test(orderId))
    throw invalidInput(`Invalid orderId ${String(orderId)}: expected the format 3-7-7 digits.`);
  return orderId;
}

/** A label or packing slip of a package: a tiny document of the asked format, base64. */
const documentOf = (format: string, trackingId: string) => ({
  type: 'LABEL',
  format,
  contents: Buffer.from(`${format} label ${trackingId}`).toString('base64'),
});

/** Demo shipments every seller starts with (the action examples use them): one to read documents of, one to cancel. */
function seed(): Map<string, Shipment> {
  const made = (shipmentId: string, trackingId: string): Shipment => ({
    shipmentId,
    orderId: '113-4419825-7310652',
    carrierId: 'UPS',
    packages: [{ packageClientReferenceId: 'PKG-1', trackingId }],
    canceled: false,
  });
  return new Map([
    ['87852211788104', made('87852211788104', '1Z999AA10123456784')],
    ['87852211788105', made('87852211788105', '1Z999AA10123456791')],
  ]);
}

/**
 * The Amazon Shipping v2 operations of the order action types: getRates, purchaseShipment, getShipmentDocuments and
 * cancelShipment; quotes and shipments are kept per seller, in the factory's closure.
 */
export function shippingRoutes(): SpRoute[] {
  const quotes = new Map<string, Quote>();
  const shipments = new Map<string, Map<string, Shipment>>();
  const shipmentsOf = (ctx: SpContext) =>
    shipments.get(ctx.seller.sellerId) ?? shipments.set(ctx.seller.sellerId, seed()).get(ctx.seller.sellerId)!;
  const shipmentOf = (ctx: SpContext) => {
    const shipment = shipmentsOf(ctx).get(ctx.params[0]!);
    if (!shipment) throw new SpError(404, 'NotFound', `Shipment ${ctx.params[0]} was not found.`);
    return shipment;
  };

  /** getRates: three ground services priced by weight, under a fresh request token. */
  function getRates(ctx: SpContext) {
    const body = ctx.body as
      | {
          shipFrom?: Record<string, unknown>;
          shipTo?: unknown;
          shipDate?: string;
          packages?: Record<string, unknown>[];
          channelDetails?: { channelType?: string; amazonOrderDetails?: { orderId?: unknown } };
        }
      | undefined;
    if (
      !body?.shipFrom ||
      ['name', 'addressLine1', 'city', 'stateOrRegion', 'postalCode', 'countryCode'].some((k) => !body.shipFrom![k])
    )
      throw invalidInput('shipFrom is missing or incomplete.');
    if (!Array.isArray(body.packages) || body.packages.length === 0) throw invalidInput('packages is required.');
    const channel = body.channelDetails?.channelType;
    if (channel !== 'AMAZON' && channel !== 'EXTERNAL')
      throw invalidInput('channelDetails.channelType must be AMAZON or EXTERNAL.');
    const orderId = channel === 'AMAZON' ? requireOrderId(body.channelDetails?.amazonOrderDetails?.orderId) : null;
    if (channel === 'EXTERNAL' && !body.shipTo) throw invalidInput('shipTo is required for EXTERNAL shipments.');
    let pounds = 0;
    for (const p of body.packages) {
      const w = p.weight as { value?: number; unit?: string } | undefined;
      if (
        !p.packageClientReferenceId ||
        !p.dimensions ||
        !p.insuredValue ||
        !Array.isArray(p.items) ||
        typeof w?.value !== 'number' ||
        !(w.value > 0)
      )
        throw invalidInput('Each package needs packageClientReferenceId, dimensions, weight, insuredValue and items.');
      pounds +=
        w.unit === 'POUND'
          ? w.value
          : w.unit === 'OUNCE'
            ? w.value / 16
            : w.unit === 'KILOGRAM'
              ? w.value * 2.20462
              : w.value / 453.592;
    }
    const start = body.shipDate ? Date.parse(body.shipDate) : ctx.at;
    const requestToken = hex(29);
    const rates = SERVICES.map((s) => ({
      rateId: hex(29),
      carrierId: s.carrierId,
      carrierName: s.carrierName,
      serviceId: s.serviceId,
      serviceName: s.serviceName,
      billedWeight: { value: Math.ceil(pounds), unit: 'POUND' },
      totalCharge: { value: (s.baseCents + s.perLbCents * Math.ceil(pounds)) / 100, unit: 'USD' },
      promise: {
        pickupWindow: { start: iso(start), end: iso(start + DAY / 3) },
        deliveryWindow: { start: iso(start + s.days[0] * DAY), end: iso(start + s.days[1] * DAY) },
      },
      supportedDocumentSpecifications: ['PDF', 'PNG', 'ZPL'].map((format) => ({
        format,
        size: { length: 6, width: 4, unit: 'INCH' },
        printOptions: [
          {
            supportedDPIs: [203, 300],
            supportedPageLayouts: ['DEFAULT'],
            supportedFileJoiningOptions: [false],
            supportedDocumentDetails: [{ name: 'LABEL', isMandatory: true }],
          },
        ],
      })),
      requiresAdditionalInputs: false,
    }));
    quotes.set(requestToken, {
      orderId,
      packages: body.packages.map((p) => String(p.packageClientReferenceId)),
      rates,
    });
    return { status: 200, body: { payload: { requestToken, rates, ineligibleRates: [] } } };
  }

  /** purchaseShipment: buys a rate of a request token once; a shipment with a tracking id and a label per package. */
  function purchase(ctx: SpContext) {
    const body = ctx.body as
      | {
          requestToken?: unknown;
          rateId?: unknown;
          requestedDocumentSpecification?: {
            format?: unknown;
            size?: unknown;
            requestedDocumentTypes?: unknown;
            needFileJoining?: unknown;
          };
        }
      | undefined;
    const spec = body?.requestedDocumentSpecification;
    if (
      typeof body?.requestToken !== 'string' ||
      typeof body.rateId !== 'string' ||
      !spec ||
      !spec.size ||
      !Array.isArray(spec.requestedDocumentTypes) ||
      typeof spec.needFileJoining !== 'boolean'
    )
      throw invalidInput(
        'requestToken, rateId and requestedDocumentSpecification (format, size, needFileJoining, requestedDocumentTypes) are required.',
      );
    if (!['PDF', 'PNG', 'ZPL'].includes(String(spec.format)))
      throw invalidInput(`Unsupported document format ${String(spec.format)}.`);
    const quote = quotes.get(body.requestToken);
    const rate = quote?.rates.find((r) => r.rateId === body.rateId);
    if (!quote || !rate) throw invalidInput('The requestToken or rateId is invalid or was already used.');
    quotes.delete(body.requestToken);
    const shipmentId = digits(14);
    const packages = quote.packages.map((packageClientReferenceId) => ({
      packageClientReferenceId,
      trackingId: rate.carrierId === 'UPS' ? `1Z${hex(6)}${digits(10)}` : digits(22),
    }));
    shipmentsOf(ctx).set(shipmentId, {
      shipmentId,
      orderId: quote.orderId,
      carrierId: rate.carrierId,
      packages,
      canceled: false,
    });
    const packageDocumentDetails = packages.map((p) => ({
      ...p,
      packageDocuments: [documentOf(String(spec.format), p.trackingId)],
    }));
    return {
      status: 200,
      body: {
        payload: {
          shipmentId,
          packageDocumentDetails,
          promise: {
            pickupWindow: { start: iso(ctx.at), end: iso(ctx.at + DAY / 3) },
            deliveryWindow: { start: iso(ctx.at + 2 * DAY), end: iso(ctx.at + 5 * DAY) },
          },
          benefits: { includedBenefits: [], excludedBenefits: [] },
        },
      },
    };
  }

  /** getShipmentDocuments: the label of one package of a shipment that is not canceled. */
  function documents(ctx: SpContext) {
    const reference = ctx.query.packageClientReferenceId;
    if (!reference) throw invalidInput('packageClientReferenceId is required.');
    const format = ctx.query.format ?? 'PDF';
    if (!['PDF', 'PNG', 'ZPL'].includes(format)) throw invalidInput(`Unsupported document format ${format}.`);
    const shipment = shipmentOf(ctx);
    if (shipment.canceled) throw invalidInput(`Shipment ${shipment.shipmentId} was canceled: it has no documents.`);
    const pkg = shipment.packages.find((p) => p.packageClientReferenceId === reference);
    if (!pkg) throw invalidInput(`Package ${reference} is not part of shipment ${shipment.shipmentId}.`);
    return {
      status: 200,
      body: {
        payload: {
          shipmentId: shipment.shipmentId,
          packageDocumentDetail: { ...pkg, packageDocuments: [documentOf(format, pkg.trackingId)] },
          benefits: { includedBenefits: [], excludedBenefits: [] },
        },
      },
    };
  }

  /** cancelShipment: once; a canceled shipment cannot be canceled again. */
  function cancel(ctx: SpContext) {
    const shipment = shipmentOf(ctx);
    if (shipment.canceled) throw invalidInput(`Shipment ${shipment.shipmentId} is already canceled.`);
    shipment.canceled = true;
    return { status: 200, body: { payload: {} } };
  }

  return [
    { method: 'POST', pattern: /^\/shipping\/v2\/shipments\/rates$/, operation: 'getRates', handler: getRates },
    { method: 'POST', pattern: /^\/shipping\/v2\/shipments$/, operation: 'purchaseShipment', handler: purchase },
    {
      method: 'GET',
      pattern: /^\/shipping\/v2\/shipments\/([^/]+)\/documents$/,
      operation: 'getShipmentDocuments',
      handler: documents,
    },
    {
      method: 'PUT',
      pattern: /^\/shipping\/v2\/shipments\/([^/]+)\/cancel$/,
      operation: 'cancelShipment',
      handler: cancel,
    },
  ];
}
