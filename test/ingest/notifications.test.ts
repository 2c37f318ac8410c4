import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addConnection } from '../../src/control/connections/connections.ts';
import { createOrganization } from '../../src/control/organizations.ts';
import { openWarehouse, type Warehouse } from '../../src/db/warehouse.ts';
import { resolveHome } from '../../src/home.ts';
import { createSubscription, deleteSubscription } from '../../src/webhooks/subscriptions.ts';
import { land, rows } from '../helpers/home.ts';
import { writeJson } from '../helpers/profit.ts';

const SOURCE = 'notifications';
const raw = 'raw.notifications';
const sample = (type: string) =>
  fileURLToPath(new URL(`../../fixtures/upstream-samples/notification.${type}.example.json`, import.meta.url));
const sampleJson = (type: string) => JSON.parse(readFileSync(sample(type), 'utf8')) as Record<string, any>;

// The sellers of the samples: A (ANY_OFFER_CHANGED, TRANSACTION_UPDATE, REPORT_PROCESSING_FINISHED) and B
// (LISTINGS_ITEM_STATUS_CHANGE).
const SELLER_A = 'A3TH9S8BH6GOGM';
const SELLER_B = 'A3AYAZLIQ7AX77';
const US = 'ATVPDKIKX0DER';
const DE = 'A1PA6795UKMFR9';
const connection = (n: number, marketplaceId: string) => ({
  id: `00000000-0000-4000-8000-00000000c00${n}`,
  marketplaceId,
});
const OTHER_B = connection(0, US); // seller B in another organization: never routed to
const A_US = connection(1, US);
const A_DE = connection(2, DE);
const B_US = connection(3, US);

const offer = sampleJson('ANY_OFFER_CHANGED');
const listing = sampleJson('LISTINGS_ITEM_STATUS_CHANGE');
const transaction = sampleJson('TRANSACTION_UPDATE');
/** A camelCase ITEM_INVENTORY_EVENT_CHANGE (the schema's example), for seller B's merchant account. */
const inventory = {
  notificationVersion: '2020-09-04',
  notificationType: 'ITEM_INVENTORY_EVENT_CHANGE',
  payloadVersion: '2020-09-04',
  eventTime: '2023-02-07T16:05:32.378Z',
  payload: {
    itemInventoryEventChanges: [
      {
        accountId: `amzn1.merchant.o.${SELLER_B}`,
        marketplaceId: US,
        startTime: '2023-02-07T15:00:00Z',
        endTime: '2023-02-07T16:00:00Z',
        asin: 'B00032HE0O',
        highlyAvailableInventory: 650,
      },
    ],
  },
  notificationMetadata: {
    applicationId: 'amzn1.sellerapps.app.x',
    subscriptionId: 'sub-1',
    publishTime: '2023-02-07T16:45:32.378Z',
    notificationId: 'inv-0001',
  },
};
const withId = (message: Record<string, any>, id: string) => ({
  ...message,
  NotificationMetadata: { ...message.NotificationMetadata, NotificationId: id },
});

describe('ingest notifications and their webhook events', () => {
  let wh: Warehouse;
  let dir: string;
  let organizationId: string;
  let subscriptionId: string;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mktdata-test-'));
    wh = await openWarehouse(resolveHome(join(dir, 'home')), 'test', { create: true });
    organizationId = await createOrganization(wh, { name: 'Sellers A and B', tokens: 10 });
    const other = await createOrganization(wh, { name: 'Another org', tokens: 10 });
    await addConnection(wh, {
      organizationId: other,
      id: OTHER_B.id,
      name: 'Other B',
      marketplaceId: US,
      sellerId: SELLER_B,
    });
    await addConnection(wh, {
      organizationId,
      id: A_US.id,
      name: 'Seller A US',
      marketplaceId: US,
      sellerId: SELLER_A,
    });
    await addConnection(wh, {
      organizationId,
      id: A_DE.id,
      name: 'Seller A DE',
      marketplaceId: DE,
      sellerId: SELLER_A,
    });
    await addConnection(wh, {
      organizationId,
      id: B_US.id,
      name: 'Seller B US',
      marketplaceId: US,
      sellerId: SELLER_B,
    });
    const messageTypes = [
      'MKT_ANY_OFFER_CHANGED',
      'MKT_LISTINGS_ITEM_STATUS_CHANGE',
      'MKT_TRANSACTION_UPDATE',
      'MKT_ITEM_INVENTORY_EVENT_CHANGE',
      'MKT_FBA_INVENTORY_AVAILABILITY_CHANGES',
    ];
    subscriptionId = (
      await createSubscription(wh, organizationId, { url: 'https://hooks.example.com/x', messageTypes })
    ).id;
  });
  afterEach(async () => wh.close());

  const count = async (table: string) => (await rows(wh, `select count(*)::int as n from ${table}`))[0]?.n;
  const events = () =>
    rows(wh, 'select message_type, connection_id, dedupe_key from control.webhook_events order by seq');
  const bodyOf = async (dedupeKey: string) =>
    String(
      (await rows(wh, 'select body from control.webhook_events where dedupe_key = $k', { k: dedupeKey }))[0]?.body,
    );

  it('lands PascalCase and camelCase messages and derives one event per shared-shape notification, routed by the payload seller', async () => {
    // Landed for A's DE connection: the payload's seller (and marketplace) decide the connection of each event.
    expect(await land(wh, SOURCE, A_DE, sample('ANY_OFFER_CHANGED'))).toMatchObject({ status: 'landed', rows: 1 });
    expect(await land(wh, SOURCE, A_DE, sample('LISTINGS_ITEM_STATUS_CHANGE'))).toMatchObject({
      status: 'landed',
      rows: 1,
    });
    expect(await land(wh, SOURCE, A_DE, writeJson(dir, 'tx.json', withId(transaction, 'tx-0001')))).toMatchObject({
      status: 'landed',
      rows: 1,
    });
    const stranger = { ...withId(listing, 'lst-0002'), Payload: { ...listing.Payload, SellerId: 'A0UNKNOWN' } };
    expect(await land(wh, SOURCE, A_DE, writeJson(dir, 'two.json', [inventory, stranger]))).toMatchObject({
      status: 'landed',
      rows: 2,
    });

    expect(
      await rows(
        wh,
        `select notification_id, notification_type, timezone('UTC', event_time)::varchar as event_utc, payload_version, seller_key,
        _line_number, _connection_id, _extra::varchar as extra from ${raw} order by notification_id`,
      ),
    ).toEqual([
      {
        notification_id: '8e009934-da2c-4f9c-9bc7-93f23b7e1f60',
        notification_type: 'LISTINGS_ITEM_STATUS_CHANGE',
        event_utc: '2021-02-03 18:59:30.194',
        payload_version: '1.0',
        seller_key: SELLER_B,
        _line_number: '1',
        _connection_id: A_DE.id,
        extra: '{"NotificationVersion":"1.0"}',
      },
      {
        notification_id: 'd0e9e693-c3ad-4373-979f-ed4ec98dd746',
        notification_type: 'ANY_OFFER_CHANGED',
        event_utc: '2020-07-13 19:42:04.284',
        payload_version: '1.0',
        seller_key: SELLER_A,
        _line_number: '1',
        _connection_id: A_DE.id,
        extra: '{"NotificationVersion":"1.0"}',
      },
      // accountId amzn1.merchant.o.<seller id> names the seller.
      {
        notification_id: 'inv-0001',
        notification_type: 'ITEM_INVENTORY_EVENT_CHANGE',
        event_utc: '2023-02-07 16:05:32.378',
        payload_version: '2020-09-04',
        seller_key: SELLER_B,
        _line_number: '1',
        _connection_id: A_DE.id,
        extra: '{"notificationVersion":"2020-09-04"}',
      },
      {
        notification_id: 'lst-0002',
        notification_type: 'LISTINGS_ITEM_STATUS_CHANGE',
        event_utc: '2021-02-03 18:59:30.194',
        payload_version: '1.0',
        seller_key: 'A0UNKNOWN',
        _line_number: '2',
        _connection_id: A_DE.id,
        extra: '{"NotificationVersion":"1.0"}',
      },
      // SellingPartnerId sits two levels down: Payload.TransactionUpdateNotification.SellingPartnerMetadata.
      {
        notification_id: 'tx-0001',
        notification_type: 'TRANSACTION_UPDATE',
        event_utc: '2023-07-14 03:35:13.214',
        payload_version: '1.0',
        seller_key: SELLER_A,
        _line_number: '1',
        _connection_id: A_DE.id,
        extra: '{"NotificationVersion":"1.0"}',
      },
    ]);

    expect(await events()).toEqual([
      // Seller A has US and DE connections: the offer's marketplace (OfferChangeTrigger.MarketplaceId) picks US.
      {
        message_type: 'MKT_ANY_OFFER_CHANGED',
        connection_id: A_US.id,
        dedupe_key: 'd0e9e693-c3ad-4373-979f-ed4ec98dd746',
      },
      // Seller B's connection of this organization, not the other organization's.
      {
        message_type: 'MKT_LISTINGS_ITEM_STATUS_CHANGE',
        connection_id: B_US.id,
        dedupe_key: '8e009934-da2c-4f9c-9bc7-93f23b7e1f60',
      },
      // Marketplace ATIV93840DER is none of A's: the landing connection, one of A's, is kept.
      { message_type: 'MKT_TRANSACTION_UPDATE', connection_id: A_DE.id, dedupe_key: 'tx-0001' },
      // One file's events in event-time order; an unknown seller stays with the landing connection.
      { message_type: 'MKT_LISTINGS_ITEM_STATUS_CHANGE', connection_id: A_DE.id, dedupe_key: 'lst-0002' },
      { message_type: 'MKT_ITEM_INVENTORY_EVENT_CHANGE', connection_id: B_US.id, dedupe_key: 'inv-0001' },
    ]);

    expect(await bodyOf('d0e9e693-c3ad-4373-979f-ed4ec98dd746')).toBe(
      JSON.stringify({
        messageType: 'MKT_ANY_OFFER_CHANGED',
        summary: {
          marketplaceId: 'ATVPDKIKX0DER',
          marketplaceCountryCode: 'US',
          marketplaceCountryName: 'United States',
          sellerOrVendorId: A_US.id,
          sellerOrVendorName: 'Seller A US',
          marketplaceSellerId: 'A3TH9S8BH6GOGM',
          spApiNotificationId: 'd0e9e693-c3ad-4373-979f-ed4ec98dd746',
          spApiNotificationType: 'ANY_OFFER_CHANGED',
          eventTimeUtc: '2020-07-13T19:42:04.284Z',
        },
        details: {
          notificationMetadata: {
            ApplicationId: 'app-id-d0e9e693-c3ad-4373-979f-ed4ec98dd746',
            SubscriptionId: 'subscription-id-d0e9e693-c3ad-4373-979f-ed4ec98dd746',
            PublishTime: '2020-07-13T19:42:04.284Z',
            NotificationId: 'd0e9e693-c3ad-4373-979f-ed4ec98dd746',
          },
          payload: offer.Payload,
        },
        occurredAt: '2020-07-13T19:42:04.284Z',
      }),
    );
    const camel = JSON.parse(await bodyOf('inv-0001'));
    expect(camel.summary).toEqual({
      marketplaceId: US,
      marketplaceCountryCode: 'US',
      marketplaceCountryName: 'United States',
      sellerOrVendorId: B_US.id,
      sellerOrVendorName: 'Seller B US',
      marketplaceSellerId: SELLER_B,
      spApiNotificationId: 'inv-0001',
      spApiNotificationType: 'ITEM_INVENTORY_EVENT_CHANGE',
      eventTimeUtc: '2023-02-07T16:05:32.378Z',
    });
    expect(camel.details).toEqual({ notificationMetadata: inventory.notificationMetadata, payload: inventory.payload });

    // One pending delivery per event, to the subscription.
    expect(
      await rows(
        wh,
        `select count(*)::int as n, count(distinct d.event_id)::int as events, min(d.status) as lo, max(d.status) as hi,
        min(d.subscription_id) as subscription, min(d.url) as url from control.webhook_deliveries d join control.webhook_events e on e.id = d.event_id`,
      ),
    ).toEqual([
      {
        n: 5,
        events: 5,
        lo: 'PENDING',
        hi: 'PENDING',
        subscription: subscriptionId,
        url: 'https://hooks.example.com/x',
      },
    ]);
  });

  it('makes one event of a notification id, however often and in whichever file it lands', async () => {
    expect(await land(wh, SOURCE, A_US, sample('ANY_OFFER_CHANGED'))).toMatchObject({ status: 'landed', rows: 1 });
    // The same message again, as an array in another file, and twice in one file with a new one.
    expect(await land(wh, SOURCE, A_US, writeJson(dir, 'again.json', [offer]))).toMatchObject({
      status: 'landed',
      rows: 1,
    });
    const fresh = withId(offer, 'offer-0002');
    expect(await land(wh, SOURCE, A_US, writeJson(dir, 'twice.json', [fresh, offer, fresh]))).toMatchObject({
      status: 'landed',
      rows: 3,
    });
    // The TRANSACTION_UPDATE sample carries the same (placeholder) notification id as the ANY_OFFER_CHANGED one.
    expect(await land(wh, SOURCE, A_US, sample('TRANSACTION_UPDATE'))).toMatchObject({ status: 'landed', rows: 1 });
    expect(await count(raw)).toBe(6);
    expect(await events()).toEqual([
      {
        message_type: 'MKT_ANY_OFFER_CHANGED',
        connection_id: A_US.id,
        dedupe_key: 'd0e9e693-c3ad-4373-979f-ed4ec98dd746',
      },
      { message_type: 'MKT_ANY_OFFER_CHANGED', connection_id: A_US.id, dedupe_key: 'offer-0002' },
    ]);
    expect(await count('control.webhook_deliveries')).toBe(2);
  });

  it('identifies a message without metadata (FBA_INVENTORY_AVAILABILITY_CHANGES) by the hash of its JSON', async () => {
    const fba = {
      NotificationVersion: '1.0',
      NotificationType: 'FBA_INVENTORY_AVAILABILITY_CHANGES',
      PayloadVersion: '1.0',
      EventTime: '2024-05-01T10:00:00+02:00',
      Payload: {
        SellerId: SELLER_B,
        FNSKU: 'X0001',
        ASIN: 'B0001',
        SKU: 'S-1',
        FulfillmentInventoryByMarketplace: [{ MarketplaceId: US, FulfillmentInventory: { Fulfillable: 3 } }],
      },
    };
    const id = createHash('sha256').update(JSON.stringify(fba)).digest('hex');
    expect(await land(wh, SOURCE, A_US, writeJson(dir, 'fba.json', fba))).toMatchObject({ status: 'landed', rows: 1 });
    const pretty = join(dir, 'fba-pretty.json');
    writeFileSync(pretty, JSON.stringify(fba, null, 2));
    expect(await land(wh, SOURCE, A_US, pretty)).toMatchObject({ status: 'landed', rows: 1 });
    expect(await rows(wh, `select distinct notification_id, notification_metadata from ${raw}`)).toEqual([
      { notification_id: id, notification_metadata: null },
    ]);
    expect(await events()).toEqual([
      { message_type: 'MKT_FBA_INVENTORY_AVAILABILITY_CHANGES', connection_id: B_US.id, dedupe_key: id },
    ]);
    const body = JSON.parse(await bodyOf(id));
    expect(body.details).toEqual({ notificationMetadata: {}, payload: fba.Payload });
    expect(body.occurredAt).toBe('2024-05-01T08:00:00.000Z');
    expect(body.summary.eventTimeUtc).toBe('2024-05-01T08:00:00.000Z');
  });

  it('lands a type that is no webhook message (REPORT_PROCESSING_FINISHED) without an event', async () => {
    expect(await land(wh, SOURCE, A_US, sample('REPORT_PROCESSING_FINISHED'))).toMatchObject({
      status: 'landed',
      rows: 1,
    });
    expect(
      await rows(
        wh,
        `select notification_id, notification_type, seller_key, notification_metadata->>'subscriptionId' as subscription,
        payload->'reportProcessingFinishedNotification'->>'reportId' as report_id from ${raw}`,
      ),
    ).toEqual([
      {
        notification_id: 'd0e9e693-c3ad-4373-979f-ed4ec98dd746',
        notification_type: 'REPORT_PROCESSING_FINISHED',
        seller_key: SELLER_A,
        subscription: 'subscription-id-d0e9e693-c3ad-4373-979f-ed4ec98dd746',
        report_id: '54517018502',
      },
    ]);
    expect(await count('control.webhook_events')).toBe(0);
  });

  it('reads an SQS ReceiveMessage answer: each message body is a notification', async () => {
    const sqs = { Messages: [{ MessageId: 'm-1', ReceiptHandle: 'r-1', Body: JSON.stringify(listing) }] };
    expect(await land(wh, SOURCE, A_US, writeJson(dir, 'sqs.json', sqs))).toMatchObject({ status: 'landed', rows: 1 });
    expect(await events()).toEqual([
      {
        message_type: 'MKT_LISTINGS_ITEM_STATUS_CHANGE',
        connection_id: B_US.id,
        dedupe_key: '8e009934-da2c-4f9c-9bc7-93f23b7e1f60',
      },
    ]);
  });

  const { NotificationType: _type, ...untyped } = listing;
  const refusals: [string, unknown, number | null, string][] = [
    ['a message without type', [offer, untyped], 2, 'record 2: NotificationType is missing'],
    [
      'an event time that is no date-time',
      [offer, { ...inventory, eventTime: 'yesterday' }],
      2,
      'record 2: eventTime "yesterday" is not an ISO 8601 date-time',
    ],
    ['a type that is no string', { ...offer, NotificationType: 7 }, 1, 'record 1: NotificationType is not a string'],
    ['a payload that is no object', { ...listing, Payload: ['x'] }, 1, 'record 1: Payload is not an object'],
    [
      'metadata without notification id',
      { ...inventory, notificationMetadata: { applicationId: 'a' } },
      1,
      'record 1: notificationMetadata.notificationId is missing',
    ],
    [
      'a document that is no message',
      'ANY_OFFER_CHANGED',
      null,
      'expected a notification message (a JSON object), an array of them, or an SQS ReceiveMessage answer',
    ],
  ];

  it.each(refusals)(
    'refuses %s whole, naming record and field: nothing lands, no event',
    async (_name, document, line, reason) => {
      expect(await land(wh, SOURCE, A_US, writeJson(dir, 'bad.json', document))).toMatchObject({
        status: 'refused',
        line,
        reason,
      });
      expect(await count(raw)).toBe(0);
      expect(await count('control.webhook_events')).toBe(0);
      expect(await count('control.webhook_deliveries')).toBe(0);
    },
  );

  it('keeps no event without a live subscription to receive it', async () => {
    await deleteSubscription(wh, organizationId, subscriptionId);
    expect(await land(wh, SOURCE, A_US, sample('LISTINGS_ITEM_STATUS_CHANGE'))).toMatchObject({
      status: 'landed',
      rows: 1,
    });
    expect(await count(raw)).toBe(1);
    expect(await count('control.webhook_events')).toBe(0);
  });
});
