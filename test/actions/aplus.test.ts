// A+ content action types against the fake marketplace (A+ Content API 2020-11-01): each schema example run to its
// final status for the demo US seller, a write seen by later finds, refusals, and publications finished by `check`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aplusActions } from '../../src/actions/definitions/aplus.ts';
import { exampleOf, type ActionDefinition } from '../../src/actions/definitions/define.ts';
import { ConnectorError } from '../../src/connectors/connector-error.ts';
import { actionBench } from '../helpers/action-context.ts';

type AplusType =
  `MKT_APLUS_CONTENT_${'ADD' | 'UPDATE' | 'FIND' | 'ASINS_UPDATE' | 'ASINS_FIND' | 'VALIDATE' | 'PUBLISH' | 'SUSPEND' | 'PUBLISH_RECORDS_FIND'}`;
const A = aplusActions as Record<AplusType, ActionDefinition>;
/** The fake's seed document of the US seller: published on ACM-PACK-DAY-BLK (B0NB0P6V0A). */
const SEED = '2ac78a27-1adf-46b7-adfb-f6b71c11ab07';
const PACK = 'B0NB0P6V0A';
const MUG = 'B0D8SM9EZR';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Real milliseconds for the fake's 60 s review at 2000× (30 ms), with room to spare. */

describe('A+ content actions', () => {
  let bench: Awaited<ReturnType<typeof actionBench>>;
  // The fake reviews submitted content in a minute of its time (APLUS_REVIEW_MS), on the clock both share.
  const afterReview = () => bench.clock.sleep(61_000);
  beforeAll(async () => {
    bench = await actionBench();
  });
  afterAll(async () => {
    await bench.fake.close();
  });

  it('FIND: the seed document with its contents and metadata', async () => {
    const out = await bench.run(A.MKT_APLUS_CONTENT_FIND, exampleOf(A.MKT_APLUS_CONTENT_FIND));
    expect(out.status).toBe('COMPLETED');
    expect(out.result).toMatchObject({
      contentReferenceKey: SEED,
      contentMetadata: {
        name: 'Acme Daypack – brand story',
        marketplaceId: 'ATVPDKIKX0DER',
        status: 'APPROVED',
        badgeSet: ['STANDARD'],
        updateTime: '2024-10-01T00:00:00.000Z',
      },
      contentDocument: {
        contentType: 'EBC',
        locale: 'en_US',
        contentModuleList: [{ contentModuleType: 'STANDARD_TEXT' }],
      },
    });
  });

  it('ADD: a new draft, seen by FIND in the upstream module shape and in the list', async () => {
    const out = await bench.run(A.MKT_APLUS_CONTENT_ADD, exampleOf(A.MKT_APLUS_CONTENT_ADD));
    expect(out.status).toBe('COMPLETED');
    const key = (out.result as { contentReferenceKey: string }).contentReferenceKey;
    expect(key).toMatch(UUID);
    expect(out.result).toEqual({ contentReferenceKey: key, warnings: [] });

    const found = await bench.run(A.MKT_APLUS_CONTENT_FIND, { contentReferenceKey: key });
    expect(found.result).toMatchObject({ contentMetadata: { name: 'Acme Daypack – trail story', status: 'DRAFT' } });
    expect((found.result as { contentDocument: unknown }).contentDocument).toEqual({
      name: 'Acme Daypack – trail story',
      contentType: 'EBC',
      locale: 'en_US',
      contentModuleList: [
        {
          contentModuleType: 'STANDARD_TEXT',
          standardText: {
            headline: { value: 'Built for the trail' },
            body: { textList: [{ value: 'Every Acme daypack is tested on real trails before it reaches you.' }] },
          },
        },
        {
          contentModuleType: 'STANDARD_SINGLE_IMAGE_HIGHLIGHTS',
          standardSingleImageHighlights: {
            image: {
              uploadDestinationId: 'aplus-media/sc/3c2a9f0e-5d0b-4c3e-9a51-7f0f6b1d2e8a.jpg',
              altText: 'Acme 22L Daypack on a trail',
              imageCropSpecification: {
                size: { width: { value: 300, units: 'pixels' }, height: { value: 300, units: 'pixels' } },
              },
            },
            headline: { value: 'Why hikers pick it' },
            bulletedListBlock: {
              block: {
                textList: [
                  { position: 1, text: { value: 'Padded laptop sleeve' } },
                  { position: 2, text: { value: 'Weighs 600 g' } },
                  { position: 3, text: { value: 'Water-resistant fabric' } },
                ],
              },
            },
          },
        },
      ],
    });

    const list = await bench.run(A.MKT_APLUS_CONTENT_FIND, {});
    const records = list.result as {
      contentMetadataRecords: { contentReferenceKey: string; contentMetadata: { status: string } }[];
      nextPageToken: null;
    };
    expect(records.nextPageToken).toBeNull();
    expect(records.contentMetadataRecords.map((r) => [r.contentReferenceKey, r.contentMetadata.status])).toEqual([
      [key, 'DRAFT'],
      [SEED, 'APPROVED'],
    ]);
  });

  it('UPDATE: replaces the seed document, a draft again', async () => {
    const out = await bench.run(A.MKT_APLUS_CONTENT_UPDATE, exampleOf(A.MKT_APLUS_CONTENT_UPDATE));
    expect(out).toEqual({ status: 'COMPLETED', result: { contentReferenceKey: SEED, warnings: [] } });
    const found = await bench.run(A.MKT_APLUS_CONTENT_FIND, { contentReferenceKey: SEED });
    expect(found.result).toMatchObject({
      contentMetadata: { status: 'DRAFT' },
      contentDocument: {
        contentModuleList: [
          {
            standardText: {
              body: {
                textList: [
                  { value: 'Tested in the mountains since 1998.' },
                  { value: "Made to carry a day's gear in comfort." },
                ],
              },
            },
          },
        ],
      },
    });
  });

  it('ASINS_UPDATE then ASINS_FIND: the replaced relations with their catalog metadata', async () => {
    expect(await bench.run(A.MKT_APLUS_CONTENT_ASINS_UPDATE, exampleOf(A.MKT_APLUS_CONTENT_ASINS_UPDATE))).toEqual({
      status: 'COMPLETED',
      result: { contentReferenceKey: SEED, asins: [PACK, MUG], warnings: [] },
    });
    const found = await bench.run(A.MKT_APLUS_CONTENT_ASINS_FIND, exampleOf(A.MKT_APLUS_CONTENT_ASINS_FIND));
    expect(found.status).toBe('COMPLETED');
    expect(found.result).toEqual({
      asinMetadataSet: [
        {
          asin: PACK,
          badgeSet: ['CONTENT_PUBLISHED'],
          title: 'Acme 22L Daypack, Black',
          imageUrl: `https://m.media-amazon.com/images/I/${PACK}.jpg`,
          contentReferenceKeySet: [SEED],
        },
        {
          asin: MUG,
          badgeSet: ['CONTENT_PUBLISHED'],
          title: 'Acme Insulated Trail Mug 16 oz, Red',
          imageUrl: `https://m.media-amazon.com/images/I/${MUG}.jpg`,
          contentReferenceKeySet: [SEED],
        },
      ],
      nextPageToken: null,
    });
  });

  it('ASINS_UPDATE: an ASIN the catalog lacks is refused (invalid input)', async () => {
    const refused = bench.run(A.MKT_APLUS_CONTENT_ASINS_UPDATE, {
      contentReferenceKey: SEED,
      asins: [PACK, 'B000000000'],
    });
    await expect(refused).rejects.toBeInstanceOf(ConnectorError);
    await expect(refused).rejects.toMatchObject({
      kind: 'invalid-input',
      status: 400,
      code: 'InvalidInput',
      message: expect.stringContaining('B000000000'),
    });
  });

  it('FIND: an unknown content reference key answers 404', async () => {
    await expect(
      bench.run(A.MKT_APLUS_CONTENT_FIND, { contentReferenceKey: 'no-such-document' }),
    ).rejects.toMatchObject({ status: 404, code: 'NotFound' });
  });

  it('VALIDATE: the example is valid; promotional text and an unknown ASIN are not', async () => {
    expect(await bench.run(A.MKT_APLUS_CONTENT_VALIDATE, exampleOf(A.MKT_APLUS_CONTENT_VALIDATE))).toEqual({
      status: 'COMPLETED',
      result: { valid: true, errors: [], warnings: [] },
    });
    const out = await bench.run(A.MKT_APLUS_CONTENT_VALIDATE, {
      asins: [PACK, 'B000000000'],
      name: 'Spring deal',
      locale: 'en_US',
      modules: [{ type: 'STANDARD_TEXT', body: ['Now 20% off with free shipping.'] }],
    });
    expect(out.status).toBe('COMPLETED');
    expect(out.result).toMatchObject({
      valid: false,
      errors: [
        { code: 'CATALOG_NOT_FOUND', details: 'B000000000' },
        { code: 'CONTENT_POLICY_VIOLATION', details: 'Now 20% off with free shipping.' },
      ],
    });
  });

  it('PUBLISH: waits for the review; the check after it sees APPROVED; PUBLISH_RECORDS_FIND shows it', async () => {
    const out = await bench.run(A.MKT_APLUS_CONTENT_PUBLISH, exampleOf(A.MKT_APLUS_CONTENT_PUBLISH));
    expect(out).toEqual({
      status: 'WAITING_EXTERNAL_PROCESSING',
      result: { contentReferenceKey: SEED, status: 'SUBMITTED', warnings: [] },
      waitFor: { externalId: SEED, checkAfterMs: 60_000 },
    });
    await afterReview();
    const checked = await bench.check(A.MKT_APLUS_CONTENT_PUBLISH, SEED, exampleOf(A.MKT_APLUS_CONTENT_PUBLISH));
    expect(checked).toMatchObject({ status: 'COMPLETED', result: { contentReferenceKey: SEED, status: 'APPROVED' } });

    const records = await bench.run(
      A.MKT_APLUS_CONTENT_PUBLISH_RECORDS_FIND,
      exampleOf(A.MKT_APLUS_CONTENT_PUBLISH_RECORDS_FIND),
    );
    expect(records).toEqual({
      status: 'COMPLETED',
      result: {
        publishRecords: [
          {
            marketplaceId: 'ATVPDKIKX0DER',
            locale: 'en_US',
            asin: PACK,
            contentType: 'EBC',
            contentReferenceKey: SEED,
          },
        ],
        nextPageToken: null,
      },
    });
  });

  it('SUSPEND: the content no longer shows on its ASINs, which it keeps', async () => {
    expect(await bench.run(A.MKT_APLUS_CONTENT_SUSPEND, exampleOf(A.MKT_APLUS_CONTENT_SUSPEND))).toEqual({
      status: 'COMPLETED',
      result: { contentReferenceKey: SEED, warnings: [] },
    });
    expect(await bench.run(A.MKT_APLUS_CONTENT_PUBLISH_RECORDS_FIND, { asin: PACK })).toEqual({
      status: 'COMPLETED',
      result: { publishRecords: [], nextPageToken: null },
    });
    const asins = await bench.run(A.MKT_APLUS_CONTENT_ASINS_FIND, { contentReferenceKey: SEED, asins: [MUG] });
    expect(asins.result).toMatchObject({ asinMetadataSet: [{ asin: MUG, badgeSet: ['CONTENT_NOT_PUBLISHED'] }] });
  });

  it('PUBLISH: promotional content is rejected by the review (BLOCKED_INVALID_INPUT at the check)', async () => {
    const added = await bench.run(A.MKT_APLUS_CONTENT_ADD, {
      name: 'Mug deal',
      locale: 'en_US',
      modules: [{ type: 'STANDARD_TEXT', headline: 'Best seller', body: ['Free shipping on every mug.'] }],
    });
    const key = (added.result as { contentReferenceKey: string }).contentReferenceKey;
    await expect(bench.run(A.MKT_APLUS_CONTENT_PUBLISH, { contentReferenceKey: key })).rejects.toMatchObject({
      kind: 'invalid-input',
      message: expect.stringContaining('no related ASINs'),
    });
    await bench.run(A.MKT_APLUS_CONTENT_ASINS_UPDATE, { contentReferenceKey: key, asins: [MUG] });
    expect((await bench.run(A.MKT_APLUS_CONTENT_PUBLISH, { contentReferenceKey: key })).status).toBe(
      'WAITING_EXTERNAL_PROCESSING',
    );
    await afterReview();
    const checked = await bench.check(A.MKT_APLUS_CONTENT_PUBLISH, key, { contentReferenceKey: key });
    expect(checked).toMatchObject({
      status: 'BLOCKED_INVALID_INPUT',
      result: { contentReferenceKey: key, status: 'REJECTED' },
      error: { status: 400, code: 'CONTENT_REJECTED' },
    });
  });

  it('schemas refuse what the module subset does not allow', () => {
    expect(
      A.MKT_APLUS_CONTENT_ADD.schema.safeParse({
        name: 'x',
        locale: 'en_US',
        modules: [{ type: 'STANDARD_COMPANY_LOGO' }],
      }).success,
    ).toBe(false);
    expect(
      A.MKT_APLUS_CONTENT_ADD.schema.safeParse({
        name: 'x',
        locale: 'en_US',
        modules: [{ type: 'STANDARD_TEXT', body: ['a'], extra: 1 }],
      }).success,
    ).toBe(false);
    expect(A.MKT_APLUS_CONTENT_FIND.schema.safeParse({ contentReferenceKey: SEED, pageToken: 'abc' }).success).toBe(
      false,
    );
  });
});
