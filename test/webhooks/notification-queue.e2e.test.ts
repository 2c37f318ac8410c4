// The live connectors' notification source (issue: webhook events): the marketplace publishes to an SQS queue (the
// fake marketplace's, spoken to by the AWS SDK), the poller lands each message for the connection of its seller, and
// each shared-shape notification becomes one webhook event, however often the queue delivers it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConnectorConfig } from '../../src/connectors/config.ts';
import { NotificationPoller } from '../../src/pipelines/fetch/notifications.ts';
import { addConnection } from '../../src/control/connections/connections.ts';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { startFakeMarketplace, type FakeMarketplace } from '@mktdata/fake-marketplace';
import type { Home } from '../../src/home.ts';
import { Metrics } from '../../src/metrics/metrics.ts';
import { createSubscription } from '../../src/webhooks/subscriptions.ts';
import { makeHome, rows, US } from '../helpers/home.ts';

const sample = (type: string) =>
  JSON.parse(readFileSync(`fixtures/upstream-samples/notification.${type}.example.json`, 'utf8')) as Record<
    string,
    unknown
  >;

describe('notifications from the marketplace queue', () => {
  let home: Home;
  let wh: Warehouse;
  let fake: FakeMarketplace;
  let poller: NotificationPoller;
  const metrics = new Metrics();

  beforeAll(async () => {
    ({ home, wh } = await makeHome());
    fake = await startFakeMarketplace({ sellers: [], duplicateNotifications: 1 }); // every message delivered twice
    const org = (await wh.db.selectFrom('control.organizations').select('id').executeTakeFirstOrThrow()).id;
    // The sample notifications' seller.
    const seller = String(
      (sample('ANY_OFFER_CHANGED').Payload as Record<string, Record<string, unknown>>).AnyOfferChangedNotification!
        .SellerId,
    );
    await addConnection(wh, {
      organizationId: org,
      id: '00000000-0000-4000-8000-00000000a0a1',
      name: 'Sample seller US',
      marketplaceId: US.marketplaceId,
      sellerId: seller,
    });
    await createSubscription(wh, org, {
      url: 'https://93.184.216.34/hook',
      messageTypes: ['MKT_ANY_OFFER_CHANGED', 'MKT_LISTINGS_ITEM_STATUS_CHANGE'],
    });
    const config = loadConnectorConfig(home, {
      MKTDATA_MARKETPLACE_URL: fake.url,
      MKTDATA_NOTIFICATIONS_QUEUE_URL: fake.queueUrl,
    });
    poller = new NotificationPoller(
      wh,
      config.notifications!,
      undefined,
      () => {},
      (r) => metrics.landed(r),
    );
  });
  afterAll(async () => {
    await poller?.stop();
    await fake?.close();
    await wh?.close();
  });

  it('lands each message for its seller, deletes it from the queue, and makes one event of a message delivered twice', async () => {
    fake.notifications.publish(sample('ANY_OFFER_CHANGED'));
    fake.notifications.publish({
      ...sample('LISTINGS_ITEM_STATUS_CHANGE'),
      Payload: { ...(sample('LISTINGS_ITEM_STATUS_CHANGE').Payload as object), SellerId: 'NOBODY' },
    });
    expect(fake.notifications.depth).toBe(4);
    let received = 0;
    for (let i = 0; i < 5 && fake.notifications.depth > 0; i++) received += (await poller.pollOnce(0)).received;
    expect(received).toBe(4);
    expect(fake.notifications.depth).toBe(0); // deleted once landed or kept

    // The offer change: landed twice (the queue's duplicate), one event for the sample seller's connection.
    expect(await rows(wh, `select notification_type, count(*)::int as n from raw.notifications group by all`)).toEqual([
      { notification_type: 'ANY_OFFER_CHANGED', n: 2 },
    ]);
    const events = await rows(wh, `select message_type, connection_id from control.webhook_events`);
    expect(events).toEqual([
      { message_type: 'MKT_ANY_OFFER_CHANGED', connection_id: '00000000-0000-4000-8000-00000000a0a1' },
    ]);
    // The server's metrics count the notification rows landed: the two of the offer change, not the kept ones.
    const landedRows = (await metrics.registry.getSingleMetric('mktdata_rows_landed_total')!.get()).values;
    expect(landedRows.filter((v) => v.labels.source === 'notifications').map((v) => v.value)).toEqual([2]);
    // The listing change names a seller no connection has: kept, not lost.
    const unrouted = join(home.quarantine, 'notifications-unrouted');
    expect(existsSync(unrouted) && readdirSync(unrouted).length).toBe(2);
  });
});
