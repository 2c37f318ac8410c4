import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleOf, type ActionDefinition, type ActionOutcome } from '../../src/actions/definitions/define.ts';
import { feedActions, reportOutcome } from '../../src/actions/definitions/feeds.ts';
import { feedResult, submitFeed } from '../../src/connectors/feeds.ts';
import { actionBench } from '../helpers/action-context.ts';

type Bench = Awaited<ReturnType<typeof actionBench>>;
type Type = keyof typeof feedActions;
const def = (type: Type): ActionDefinition => feedActions[type]!;
const example = (type: Type) => exampleOf(def(type));
type Items = { items: Record<string, unknown>[] };

describe('feed actions: order cancellation and FBA removal orders', () => {
  let bench: Bench;
  beforeAll(async () => {
    bench = await actionBench();
  });
  afterAll(async () => {
    await bench.fake.close();
  });

  /** Runs a type and checks it once the fake has processed its feed (2 minutes on the clock). */
  async function runToEnd(type: Type, details: unknown): Promise<{ waited: ActionOutcome; ended: ActionOutcome }> {
    const waited = await bench.run(def(type), details);
    expect(waited.status).toBe('WAITING_EXTERNAL_PROCESSING');
    await bench.clock.sleep(125_000);
    return { waited, ended: await bench.check(def(type), waited.waitFor!.externalId, details) };
  }

  it('cancels the example orders: waiting on the feed, then COMPLETED from its processing report', async () => {
    const waited = await bench.run(def('MKT_ORDERS_CANCEL'), example('MKT_ORDERS_CANCEL'));
    expect(waited.status).toBe('WAITING_EXTERNAL_PROCESSING');
    expect(waited.waitFor!.externalId).toMatch(/^\d{11}$/);
    expect(waited.result).toMatchObject({
      feedId: waited.waitFor!.externalId,
      feedType: 'POST_FLAT_FILE_ORDER_ACKNOWLEDGEMENT_DATA',
      records: 2,
    });

    const soon = await bench.check(def('MKT_ORDERS_CANCEL'), waited.waitFor!.externalId, example('MKT_ORDERS_CANCEL'));
    expect(soon.status).toBe('WAITING_EXTERNAL_PROCESSING');
    expect(['IN_QUEUE', 'IN_PROGRESS']).toContain((soon.result as { processingStatus: string }).processingStatus);

    await bench.clock.sleep(125_000);
    const ended = await bench.check(def('MKT_ORDERS_CANCEL'), waited.waitFor!.externalId, example('MKT_ORDERS_CANCEL'));
    expect(ended.status).toBe('COMPLETED');
    expect(ended.result).toMatchObject({ processingStatus: 'DONE', recordsProcessed: 2, recordsSuccessful: 2 });
    expect((ended.result as Items).items).toEqual([
      { 'order-id': '113-4419825-7310652', 'cancel-reason': 'NoInventory', ok: true, errors: [], warnings: [] },
      { 'order-id': '114-2950173-4418261', 'cancel-reason': 'BuyerCanceled', ok: true, errors: [], warnings: [] },
    ]);
  });

  it('creates the example removal order: COMPLETED, one record per SKU', async () => {
    const { waited, ended } = await runToEnd('MKT_FBA_REMOVAL_ORDERS_ADD', example('MKT_FBA_REMOVAL_ORDERS_ADD'));
    expect(waited.result).toMatchObject({ feedType: 'POST_FLAT_FILE_FBA_CREATE_REMOVAL', records: 2 });
    expect(ended.status).toBe('COMPLETED');
    expect(ended.result).toMatchObject({ recordsProcessed: 2, recordsSuccessful: 2 });
    expect(
      (ended.result as Items).items.map((i) => [i.MerchantSKU, i.SellableQuantity, i.UnsellableQuantity, i.ok]),
    ).toEqual([
      ['ACM-PACK-DAY-BLK', 5, 0, true],
      ['ACM-MUG-16-RED', 0, 2, true],
    ]);
  });

  it('the submitted feed is seen by getFeed and its processing report by getFeedDocument', async () => {
    const feedId = await submitFeed(bench.context().sp(), {
      feedType: 'POST_FLAT_FILE_ORDER_ACKNOWLEDGEMENT_DATA',
      marketplaceIds: ['ATVPDKIKX0DER'],
      contentType: 'text/tab-separated-values; charset=UTF-8',
      content:
        'order-id\tcancel-reason\tmerchant-order-item-id\n113-4419825-7310652\tCustomerExchange\t\nnot-an-order\tNoInventory\t\n',
    });
    await bench.clock.sleep(125_000);
    const { processingStatus, report } = await feedResult(bench.context().sp(), feedId);
    expect(processingStatus).toBe('DONE');
    expect(report).toContain('Number of records processed:\t2');
    expect(report).toContain('Number of records successful:\t1');
    expect(report).toContain('2\tnot-an-order\t18028\tError\t');
  });

  it('cancels part of a batch: a malformed order id is refused (PARTIALLY_COMPLETED), item ids give a record each', async () => {
    const details = {
      orders: [
        {
          orderId: '113-4419825-7310652',
          cancelReason: 'ShippingAddressUndeliverable',
          merchantOrderItemIds: ['ITEM-1', 'ITEM-2'],
        },
        { orderId: '113-44198257310652', cancelReason: 'NoInventory' },
      ],
    };
    const { ended } = await runToEnd('MKT_ORDERS_CANCEL', details);
    expect(ended.status).toBe('PARTIALLY_COMPLETED');
    expect(ended.result).toMatchObject({ recordsProcessed: 3, recordsSuccessful: 2 });
    const items = (ended.result as Items).items;
    expect(items.map((i) => [i['merchant-order-item-id'], i.ok])).toEqual([
      ['ITEM-1', true],
      ['ITEM-2', true],
      [undefined, false],
    ]);
    expect(items[2]!.errors).toEqual([
      {
        code: '18028',
        type: 'Error',
        message: 'The order-id 113-44198257310652 is not a valid Amazon order ID (3-7-7 digits).',
      },
    ]);
  });

  it('a removal of SKUs the seller does not stock is refused record by record: BLOCKED_INVALID_INPUT', async () => {
    const details = {
      removalOrderId: 'RMV-BAD-1',
      removalDisposition: 'Disposal',
      items: [
        { sku: 'ACM-NOPE-1', sellableQuantity: 1 },
        { sku: 'ACM-MUG-12-BLK', unsellableQuantity: 3 },
      ],
    };
    const { ended } = await runToEnd('MKT_FBA_REMOVAL_ORDERS_ADD', details);
    expect(ended.status).toBe('BLOCKED_INVALID_INPUT');
    expect(ended.error?.code).toBe('INVALID_INPUT');
    // ACM-MUG-12-BLK exists but is merchant-fulfilled only: not in FBA inventory either.
    expect((ended.result as Items).items.map((i) => (i.errors as { code: string }[])[0]!.code)).toEqual([
      '13013',
      '13013',
    ]);
    expect(ended.result).toMatchObject({ recordsProcessed: 2, recordsSuccessful: 0 });
  });

  it('a feed whose file was never uploaded ends FATAL: the action ERROR', async () => {
    const sp = bench.context().sp();
    const { body: document } = await sp.request<{ feedDocumentId: string }>('createFeedDocument', {
      method: 'POST',
      path: '/feeds/2021-06-30/documents',
      body: { contentType: 'text/tab-separated-values; charset=UTF-8' },
    });
    const { body } = await sp.request<{ feedId: string }>('createFeed', {
      method: 'POST',
      path: '/feeds/2021-06-30/feeds',
      body: {
        feedType: 'POST_FLAT_FILE_FBA_CREATE_REMOVAL',
        marketplaceIds: ['ATVPDKIKX0DER'],
        inputFeedDocumentId: document.feedDocumentId,
      },
    });
    await bench.clock.sleep(125_000);
    const ended = await bench.check(
      def('MKT_FBA_REMOVAL_ORDERS_ADD'),
      body.feedId,
      example('MKT_FBA_REMOVAL_ORDERS_ADD'),
    );
    expect(ended.status).toBe('ERROR');
    expect(ended.error).toMatchObject({ code: 'FEED_FATAL' });
  });

  it('refuses an unknown feed type and an unknown input document (400 → invalid-input)', async () => {
    const sp = bench.context().sp();
    await expect(
      submitFeed(sp, {
        feedType: 'POST_FLAT_FILE_NOTHING',
        marketplaceIds: ['ATVPDKIKX0DER'],
        contentType: 'text/plain',
        content: 'x',
      }),
    ).rejects.toMatchObject({ kind: 'invalid-input', status: 400 });
    await expect(
      sp.request('createFeed', {
        method: 'POST',
        path: '/feeds/2021-06-30/feeds',
        body: {
          feedType: 'POST_FLAT_FILE_FBA_CREATE_REMOVAL',
          marketplaceIds: ['ATVPDKIKX0DER'],
          inputFeedDocumentId: 'amzn1.tortuga.4.na.unknown',
        },
      }),
    ).rejects.toMatchObject({ kind: 'invalid-input', status: 400 });
    await expect(
      sp.request('getFeed', { method: 'GET', path: '/feeds/2021-06-30/feeds/59999999999' }),
    ).rejects.toMatchObject({ kind: 'not-found', status: 404 });
  });

  it('schemas: a Return needs an address, a Disposal takes none, quantities must not both be 0', () => {
    const schema = def('MKT_FBA_REMOVAL_ORDERS_ADD').schema;
    const { shippingAddress, ...noAddress } = example('MKT_FBA_REMOVAL_ORDERS_ADD');
    expect(schema.safeParse(noAddress).success).toBe(false);
    expect(schema.safeParse({ ...example('MKT_FBA_REMOVAL_ORDERS_ADD'), removalDisposition: 'Disposal' }).success).toBe(
      false,
    );
    expect(
      schema.safeParse({ ...noAddress, removalDisposition: 'Disposal', items: [{ sku: 'ACM-PACK-DAY-BLK' }] }).success,
    ).toBe(false);
    expect(shippingAddress).toBeDefined();
    expect(
      def('MKT_ORDERS_CANCEL').schema.safeParse({
        orders: [{ orderId: '113-4419825-7310652', cancelReason: 'Changed' }],
      }).success,
    ).toBe(false);
  });

  it('ends ERROR on a processing report that does not account for every record sent', () => {
    const rows = [{ 'order-id': '113-4419825-7310652' }, { 'order-id': '114-2950173-4418261' }];
    // Two records sent; the report speaks of one: the other's fate is unknown.
    const short = 'Feed Processing Summary:\n\tNumber of records processed\t\t1\n\tNumber of records successful\t\t1\n';
    expect(reportOutcome('50001', short, rows)).toMatchObject({
      status: 'ERROR',
      error: {
        code: 'FEED_REPORT_INCOMPLETE',
        message: "the feed's processing report counts 1 records processed; 2 were sent",
      },
    });
    expect(reportOutcome('50001', 'not a report at all', rows)).toMatchObject({
      status: 'ERROR',
      result: { recordsProcessed: 0 },
    });
    const whole = short.replace('processed\t\t1', 'processed\t\t2').replace('successful\t\t1', 'successful\t\t2');
    expect(reportOutcome('50001', whole, rows)).toMatchObject({ status: 'COMPLETED' });
  });
});
