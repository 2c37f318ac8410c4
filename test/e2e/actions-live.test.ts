// Live actions against the fake marketplace (issue: actions): a pricing update runs patchListingsItem through the
// connectors and reaches mkt_listings_with_cogs at the next listings run; a find returns the listings; a refused
// patch ends BLOCKED_INVALID_INPUT with the marketplace's issue; an action a stopped server left IN_PROGRESS runs at
// the next start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/api/app.ts';
import { setActionsBeta, setActionTypes, setConnectionAccess } from '../../src/actions/settings.ts';
import { createApiKey } from '../../src/control/organizations.ts';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { demoConnections } from '../../src/demo/demo-marketplace.ts';
import type { Home } from '../../src/home.ts';
import { loadPipelines } from '../../src/pipelines/pipeline-config.ts';
import { runPipeline } from '../../src/pipelines/run-pipeline.ts';
import { connectAll, demoHome, liveMarketplace, OPENED_ON, START } from '../helpers/live.ts';
import { contractViolations } from '../helpers/contracts.ts';
import { rows } from '../helpers/home.ts';

const US = demoConnections[0]!.id;

describe('live actions through the connectors', () => {
  let live: Awaited<ReturnType<typeof liveMarketplace>>;
  let home: Home;
  let wh: Warehouse;
  let app: App;
  let key: string;
  const listings = loadPipelines().find((p) => p.name === 'listings')!;
  const price = async (sku: string) =>
    (
      await rows(
        wh,
        `select listing_price_value::varchar as p from marts.mkt_listings_with_cogs where seller_or_vendor_id = $c and sku = $sku`,
        { c: US, sku },
      )
    )[0]?.p;

  const start = async () => {
    app = await buildApp({
      wh,
      home,
      logger: false,
      requestsPerSecond: 1000,
      connectors: live.connectors,
      now: () => live.clock.now(),
    });
    await app.ready();
  };
  const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { 'service-api-key': key },
      ...(body === undefined ? {} : { payload: body as object }),
    });
  const run = async (body: unknown) => {
    const started = await call('POST', '/actions', body);
    expect(started.statusCode, started.body).toBe(202);
    await app.exportServices.actions.runPending();
    return (await call('GET', `/actions/${started.json().actionId}`)).json();
  };

  beforeAll(async () => {
    live = await liveMarketplace({ start: START, openedOn: OPENED_ON });
    const made = await demoHome('mktdata-actions-live-');
    ({ home, wh } = made);
    await connectAll(wh, live.fake, live.sellers);
    key = await createApiKey(wh, made.organizationId);
    await setActionsBeta(wh, made.organizationId, true);
    await setActionTypes(
      wh,
      made.organizationId,
      [
        'MKT_LISTINGS_PRICING_UPDATE',
        'MKT_LISTINGS_DETAILS_UPDATE',
        'MKT_LISTINGS_FIND',
        'MKT_LISTINGS_PRODUCT_TYPES_FIND',
        'MKT_LISTINGS_PRODUCT_TYPE_SUGGEST',
        'MKT_LISTINGS_PRODUCT_TYPE_DEFINITION_FIND',
      ],
      true,
    );
    await setConnectionAccess(wh, US, 'READ_AND_WRITE');
    expect((await runPipeline(wh, listings, { fetcher: live.fetcher })).status).toBe('success');
    await start();
  });
  afterAll(async () => {
    await app?.close();
    await wh?.close();
    await live?.fake.close();
  });

  it('updates a price that the next listings run shows, finds listings, and ends a refused patch BLOCKED_INVALID_INPUT', async () => {
    const [listing] = await rows(
      wh,
      `select sku, listing_price_value::varchar as p from marts.mkt_listings_with_cogs where seller_or_vendor_id = $c order by sku limit 1`,
      { c: US },
    );
    const sku = String(listing!.sku);
    expect(listing!.p).not.toBe('12.34');

    const updated = await run({
      type: 'MKT_LISTINGS_PRICING_UPDATE',
      sellerOrVendorId: US,
      details: { sku, price: { amount: 12.34, currency: 'USD' } },
    });
    // 12.34 is less than half the listing's price (every demo product sells for more than 24.68): applied, with the
    // marketplace's pricing warning, so COMPLETED_WITH_ISSUES.
    expect(Number(listing!.p)).toBeGreaterThan(24.68);
    expect(updated).toMatchObject({
      status: 'COMPLETED_WITH_ISSUES',
      error: null,
      result: {
        sku,
        submissionStatus: 'ACCEPTED',
        submissionId: expect.any(String),
        issues: [expect.objectContaining({ code: '18348', severity: 'WARNING' })],
      },
    });

    const renamed = await run({
      type: 'MKT_LISTINGS_DETAILS_UPDATE',
      sellerOrVendorId: US,
      details: {
        sku,
        productType: 'OUTDOOR_LIVING',
        languageTag: 'en_US',
        itemName: 'Acme camp chair',
        bulletPoints: ['Folds flat', 'Holds 150 kg'],
      },
    });
    expect(renamed).toMatchObject({ status: 'COMPLETED', result: { sku, submissionStatus: 'ACCEPTED' } });
    const patch = live.fake.log.filter((e) => e.operation === 'patchListingsItem');
    expect(patch).toHaveLength(2);

    const found = await run({ type: 'MKT_LISTINGS_FIND', sellerOrVendorId: US, details: { skus: [sku] } });
    expect(found).toMatchObject({
      status: 'COMPLETED',
      result: { numberOfResults: 1, items: [expect.objectContaining({ sku })], nextToken: null },
    });

    const productType = String((found.result.items[0].productTypes as { productType: string }[])[0]!.productType);
    const types = await run({
      type: 'MKT_LISTINGS_PRODUCT_TYPES_FIND',
      sellerOrVendorId: US,
      details: { keywords: [productType.toLowerCase()] },
    });
    expect(types).toMatchObject({
      status: 'COMPLETED',
      result: { productTypes: [expect.objectContaining({ name: productType, marketplaceIds: ['ATVPDKIKX0DER'] })] },
    });

    const suggested = await run({
      type: 'MKT_LISTINGS_PRODUCT_TYPE_SUGGEST',
      sellerOrVendorId: US,
      details: { itemName: `Acme ${productType.toLowerCase()} deluxe` },
    });
    expect(suggested.result.productTypes.map((t: { name: string }) => t.name)).toContain(productType);
    const definition = await run({
      type: 'MKT_LISTINGS_PRODUCT_TYPE_DEFINITION_FIND',
      sellerOrVendorId: US,
      details: { productType },
    });
    expect(definition).toMatchObject({
      status: 'COMPLETED',
      result: { productType, requirements: 'LISTING', locale: 'en_US', schema: { link: { verb: 'GET' } } },
    });
    const unknown = await run({
      type: 'MKT_LISTINGS_PRODUCT_TYPE_DEFINITION_FIND',
      sellerOrVendorId: US,
      details: { productType: 'NO_SUCH_TYPE' },
    });
    expect(unknown).toMatchObject({ status: 'ERROR', error: { status: 404, code: 'NOT_FOUND' } });

    const refused = await run({
      type: 'MKT_LISTINGS_PRICING_UPDATE',
      sellerOrVendorId: US,
      details: { sku: 'NO-SUCH-SKU', price: { amount: 5, currency: 'USD' } },
    });
    expect(refused).toMatchObject({
      status: 'BLOCKED_INVALID_INPUT',
      error: { status: 400, code: 'LISTING_INVALID', message: 'SKU NO-SUCH-SKU does not exist for this seller.' },
      result: { submissionStatus: 'INVALID' },
    });

    // The next refresh of the listings pipeline, three hours later, fetches the listings report with the new price.
    live.clock.jump(3 * 3_600_000);
    expect((await runPipeline(wh, listings, { fetcher: live.fetcher })).status).toBe('success');
    expect(await price(sku)).toBe('12.3400');
    expect(live.fake.log.filter((e) => e.operation === 'patchListingsItem' && e.overRate)).toEqual([]);
    expect(contractViolations(live.fake)).toEqual([]);
  });

  it('runs an action a stopped server left IN_PROGRESS at the next start', async () => {
    const [listing] = await rows(
      wh,
      `select sku, listing_price_value::double as p from marts.mkt_listings_with_cogs where seller_or_vendor_id = $c order by sku desc limit 1`,
      { c: US },
    );
    await app.close();
    await start();
    // Queued and taken up, then the server stopped before it finished: it reads IN_PROGRESS in the warehouse.
    const started = await app.inject({
      method: 'POST',
      url: '/api/v1/actions',
      headers: { 'service-api-key': key },
      payload: {
        type: 'MKT_LISTINGS_PRICING_UPDATE',
        sellerOrVendorId: US,
        details: { sku: listing!.sku, price: { amount: Math.round(Number(listing!.p) * 90) / 100, currency: 'USD' } },
      },
    });
    await app.exportServices.actions.runPending();
    const id = started.json().actionId as string;
    await wh.db
      .updateTable('control.actions')
      .set({ status: 'IN_PROGRESS', result: null })
      .where('id', '=', id)
      .execute();
    await app.close();
    await start(); // the worker's start returns interrupted actions to PENDING and runs them
    await app.exportServices.actions.runPending();
    // 10% off the current price: no pricing warning.
    expect((await call('GET', `/actions/${id}`)).json()).toMatchObject({
      status: 'COMPLETED',
      result: { submissionStatus: 'ACCEPTED', issues: [] },
    });
  });
});
