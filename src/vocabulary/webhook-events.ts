/** A field of a webhook message definition (spec document 002, "Events"). */
export interface EventField {
  name: string;
  type: 'STRING' | 'NUMBER' | 'JSON' | 'OBJECT_LIST';
  optional: boolean;
  description?: string;
  fields?: EventField[];
}

/** A webhook message definition, as GET /api/v1/spec/webhook-scheme returns it. */
export interface EventDefinition {
  messageType: string;
  description: string;
  highVolume?: true;
  availabilityNote?: string;
  prerequisites?: string;
  summary: { description: string; fields: EventField[] };
  details: { description: string; fields: EventField[] };
}

const field = (
  name: string,
  type: EventField['type'],
  optional: boolean,
  description?: string,
  fields?: EventField[],
): EventField => ({
  name,
  type,
  optional,
  ...(description ? { description } : {}),
  ...(fields ? { fields } : {}),
});

const context = [
  field('marketplaceId', 'STRING', false, 'Marketplace identifier.'),
  field('marketplaceCountryCode', 'STRING', true, 'ISO country code of the marketplace.'),
  field('marketplaceCountryName', 'STRING', true, 'Country name of the marketplace.'),
  field('sellerOrVendorId', 'STRING', false, 'Connection context identifier.'),
  field('sellerOrVendorName', 'STRING', true, 'Name of the connected account.'),
  field('marketplaceSellerId', 'STRING', true, 'Seller ID of the connection, when it has one.'),
];

/** Events of the shared notification shape: type, meaning, flags. */
const notifications: {
  type: string;
  description: string;
  highVolume?: true;
  availabilityNote?: string;
  prerequisites?: string;
}[] = [
  { type: 'MKT_ACCOUNT_STATUS_CHANGED', description: 'The status of a selling account changed.' },
  { type: 'MKT_ANY_OFFER_CHANGED', description: 'Offer information for an item changed.', highVolume: true },
  {
    type: 'MKT_B2B_ANY_OFFER_CHANGED',
    description: 'Business offer information for an item changed.',
    highVolume: true,
  },
  {
    type: 'MKT_BRANDED_ITEM_CONTENT_CHANGE',
    description: 'The content of an item of a registered brand changed.',
    prerequisites: 'Requires brand-registry enrollment.',
  },
  { type: 'MKT_DETAIL_PAGE_TRAFFIC_EVENT', description: 'Traffic on a product detail page changed.', highVolume: true },
  {
    type: 'MKT_FBA_OUTBOUND_SHIPMENT_STATUS',
    description: 'The status of an outbound FBA shipment changed.',
    availabilityNote: 'Brazil FBA Onsite shipments only.',
  },
  { type: 'MKT_FEE_PROMOTION', description: 'A fee promotion became available or changed.' },
  { type: 'MKT_ITEM_INVENTORY_EVENT_CHANGE', description: 'Inventory information of an item changed.' },
  { type: 'MKT_ITEM_SALES_EVENT_CHANGE', description: 'Sales information of an item changed.', highVolume: true },
  {
    type: 'MKT_ITEM_PRODUCT_TYPE_CHANGE',
    description: 'The product type of an item changed.',
    prerequisites: 'Requires brand-registry enrollment.',
  },
  { type: 'MKT_LISTINGS_ITEM_STATUS_CHANGE', description: 'The status of a listings item changed.' },
  { type: 'MKT_LISTINGS_ITEM_ISSUES_CHANGE', description: 'The issues of a listings item changed.' },
  {
    type: 'MKT_LISTINGS_ITEM_MFN_QUANTITY_CHANGE',
    description: 'The merchant-fulfilled quantity of a listings item changed.',
  },
  {
    type: 'MKT_PRICING_HEALTH',
    description: 'An offer became ineligible for the featured offer because of an uncompetitive price.',
  },
  { type: 'MKT_TRANSACTION_UPDATE', description: 'Transaction information became available or changed.' },
  { type: 'MKT_FBA_INVENTORY_AVAILABILITY_CHANGES', description: 'FBA inventory availability changed.' },
  {
    type: 'MKT_SHIPMENT_TRACKING_MILESTONE_CHANGED',
    description: 'A tracking shipment milestone changed.',
    availabilityNote: 'US tracking API only.',
    prerequisites:
      'A subscription is required for each tracking identifier, made by running the action MKT_SHIPMENT_TRACKING_SUBSCRIBE with the tracking IDs; the service does not subscribe automatically.',
  },
];

const orderSummary = [
  ...context,
  field('mktOrderId', 'STRING', false, 'Marketplace order id.'),
  field('orderPurchasedAtUtc', 'STRING', true, 'Purchase time, ISO 8601 in UTC.'),
  field('mktOrderStatus', 'STRING', true, 'Current order status.'),
  field('fulfillmentChannel', 'STRING', true, 'AFN for marketplace-fulfilled, MFN for merchant-fulfilled.'),
];

const buyerInfo = [
  'buyerEmail',
  'buyerName',
  'buyerCompanyName',
  'buyerPurchaseOrderNumber',
  'recipientName',
  'recipientCompanyName',
  'recipientAddressLine1',
  'recipientAddressLine2',
  'recipientAddressLine3',
  'recipientCity',
  'recipientDistrictOrCounty',
  'recipientStateOrRegion',
  'recipientMunicipality',
  'recipientPostalCode',
  'recipientCountryCode',
  'recipientPhone',
  'recipientAddressType',
].map((name) => field(name, 'STRING', true));

/** Every webhook message of spec document 002, in its order. */
export const eventDefinitions: EventDefinition[] = [
  {
    messageType: 'MKT_ORDER_UPDATE',
    description: 'An order was created or updated.',
    summary: {
      description: 'The order, its status and its lines.',
      fields: [
        ...orderSummary,
        field('orderItems', 'OBJECT_LIST', true, 'The order lines.', [
          field('sku', 'STRING', false, 'Seller SKU.'),
          field('childAsin', 'STRING', true, 'Child ASIN.'),
          field('quantity', 'NUMBER', true, 'Ordered quantity.'),
          field('itemPriceValue', 'NUMBER', true, 'Total value of the line item.'),
        ]),
      ],
    },
    details: { description: 'The original event data.', fields: [field('raw', 'JSON', true, 'Original event data.')] },
  },
  {
    messageType: 'MKT_ORDER_BUYER_INFO_UPDATE',
    description: 'Buyer or recipient information of an order changed. The details carry personal data of buyers.',
    summary: { description: 'The order whose buyer information changed.', fields: orderSummary },
    details: {
      description: 'Buyer and recipient information (personal data).',
      fields: [
        ...buyerInfo,
        ...['recipientExtendedFields', 'orderItemsGiftMessages', 'orderItemsCustomizedUrls'].map((name) =>
          field(name, 'JSON', true),
        ),
      ],
    },
  },
  ...notifications.map((n): EventDefinition => ({
    messageType: n.type,
    description: n.description,
    ...(n.highVolume ? { highVolume: true as const } : {}),
    ...(n.availabilityNote ? { availabilityNote: n.availabilityNote } : {}),
    ...(n.prerequisites ? { prerequisites: n.prerequisites } : {}),
    summary: {
      description: 'The connection the notification was routed to and the upstream notification it came from.',
      fields: [
        ...context,
        field('spApiNotificationId', 'STRING', false, 'Id assigned to the notification upstream.'),
        field('spApiNotificationType', 'STRING', false, 'Upstream notification type.'),
        field('eventTimeUtc', 'STRING', false, 'Event time, ISO 8601 in UTC.'),
      ],
    },
    details: {
      description: 'The upstream notification, routed to the resolved seller or vendor connection.',
      fields: [
        field('notificationMetadata', 'JSON', false, 'Metadata sent with the notification upstream.'),
        field('payload', 'JSON', false, 'Notification payload.'),
      ],
    },
  })),
];
