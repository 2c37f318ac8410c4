import { z } from 'zod';

// Shapes of the AWD API 2024-05-09 responses (upstream-formats f3). Objects are loose: fields the model
// does not name are kept as delivered. Optional fields may also come as null.
const text = z.string().nullish();
const id = z.string().trim().min(1);
const timestamp = z.iso.datetime({ offset: true }).nullish();
const list = <T extends z.ZodType>(item: T) => z.array(item).nullish();

const address = z.looseObject({
  name: text,
  addressLine1: text,
  addressLine2: text,
  addressLine3: text,
  city: text,
  county: text,
  district: text,
  stateOrRegion: text,
  postalCode: text,
  countryCode: text,
  phoneNumber: text,
});

const productAttribute = z.looseObject({ name: text, value: text });

/** ProductQuantity: units of one SKU (outbound stages, package contents). */
const productQuantity = z.looseObject({
  sku: id,
  quantity: z.number(),
  attributes: list(productAttribute),
  expiration: timestamp,
  prepDetails: z.looseObject({}).nullish(),
});

/** DistributionPackageQuantity: `count` packages (cases or pallets) of one configuration. */
const packageQuantity = z.looseObject({
  count: z.number(),
  distributionPackage: z.looseObject({
    contents: z.looseObject({ products: list(productQuantity), packages: z.array(z.unknown()).nullish() }).nullish(),
    measurements: z.looseObject({}).nullish(),
    type: text,
  }),
});

const inventoryQuantity = z.looseObject({ quantity: z.number(), unitOfMeasurement: text });

const failure = z.looseObject({ failureCode: text, failureReasons: z.array(z.string()).nullish(), sku: text });

/** getInboundShipment: one inbound shipment. */
export const inboundShipment = z.looseObject({
  shipmentId: id,
  orderId: text,
  externalReferenceId: text,
  shipmentStatus: text,
  trackingId: text,
  shipBy: timestamp,
  carrierCode: z.looseObject({ carrierCodeType: text, carrierCodeValue: text }).nullish(),
  destinationRegion: text,
  warehouseReferenceId: text,
  destinationAddress: address.nullish(),
  originAddress: address.nullish(),
  shipmentContainerQuantities: list(packageQuantity),
  shipmentSkuQuantities: list(
    z.looseObject({
      sku: id,
      expectedQuantity: inventoryQuantity.nullish(),
      receivedQuantity: inventoryQuantity.nullish(),
    }),
  ),
  receivedQuantity: list(inventoryQuantity),
  createdAt: timestamp,
  updatedAt: timestamp,
});

const outboundShipment = z.looseObject({
  shipmentId: id,
  orderId: text,
  shipmentStatus: text,
  createdAt: timestamp,
  updatedAt: timestamp,
  destinationAddress: address.nullish(),
  originAddress: address.nullish(),
  shipmentPackageQuantities: list(packageQuantity),
  shipmentProductQuantities: list(productQuantity),
});

/** listOutbounds: an outbound order with its stages and shipments. */
export const outboundOrder = z.looseObject({
  orderId: id,
  orderStatus: text,
  confirmedOn: timestamp,
  createdAt: timestamp,
  updatedAt: timestamp,
  orderPreferences: list(z.looseObject({ orderPreference: text, orderPreferenceValue: text })),
  executionErrors: list(failure),
  eligibleProductsToOutbound: list(productQuantity),
  productsToOutbound: list(productQuantity),
  shippedOutboundProducts: list(productQuantity),
  eligiblePackagesToOutbound: list(packageQuantity),
  packagesToOutbound: list(packageQuantity),
  shippedOutboundPackages: list(packageQuantity),
  outboundShipments: list(outboundShipment),
});

const distributionProduct = z.looseObject({ sku: id, quantity: z.number(), attributes: list(productAttribute) });

/** listReplenishmentOrders: a replenishment order (AWD to FBA). */
export const replenishmentOrder = z.looseObject({
  orderId: id,
  status: text,
  confirmedOn: timestamp,
  createdAt: timestamp,
  updatedAt: timestamp,
  distributionIneligibleReasons: list(failure),
  eligibleProducts: list(distributionProduct),
  products: list(distributionProduct),
  shippedProducts: list(distributionProduct),
  outboundShipments: list(
    z.looseObject({ shipmentId: id, orderId: text, shipmentStatus: text, createdAt: timestamp, updatedAt: timestamp }),
  ),
});

/** listInventory: the AWD inventory summary of one SKU. */
export const inventorySummary = z.looseObject({
  sku: id,
  totalOnhandQuantity: z.number().nullish(),
  totalInboundQuantity: z.number().nullish(),
  inventoryDetails: z
    .looseObject({
      availableDistributableQuantity: z.number().nullish(),
      reservedDistributableQuantity: z.number().nullish(),
      replenishmentQuantity: z.number().nullish(),
    })
    .nullish(),
  expirationDetails: list(z.looseObject({ expiration: timestamp, onhandQuantity: z.number().nullish() })),
});
