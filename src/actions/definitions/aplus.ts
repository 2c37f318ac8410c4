import { z } from 'zod';
import { completed, define, waiting, type ActionContext, type ActionGroup, type ActionOutcome } from './define.ts';

const BASE = '/aplus/2020-11-01';
/** The demo US seller's published A+ document (the fake's seed): what the examples act on. */
const DEMO_KEY = '2ac78a27-1adf-46b7-adfb-f6b71c11ab07';
/** How soon a submitted document is looked at again (reviews take from minutes to days). */
const REVIEW_CHECK_MS = 60_000;

const contentReferenceKey = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .describe('The content reference key of an A+ content document (from MKT_APLUS_CONTENT_ADD or _FIND).');
const asin = z.string().regex(/^[A-Z0-9]{10}$/, 'a 10-character ASIN such as B0NB0P6V0A');
const pageToken = z.string().min(1).max(2048).optional().describe('nextPageToken of the previous page.');
const headline = (max: number) => z.string().trim().min(1).max(max);
const paragraphs = (max: number) =>
  z.array(z.string().trim().min(1).max(max)).min(1).max(20).describe('Paragraphs of plain text.');
const pixels = z.number().int().min(1).max(10_000);

const image = z
  .object({
    uploadDestinationId: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .describe(
        'The uploaded image: uploadDestinationId from the Uploads API (resource aplus/2020-11-01/contentDocuments).',
      ),
    altText: z.string().trim().min(1).max(100),
    width: pixels.describe('Crop width in pixels.'),
    height: pixels.describe('Crop height in pixels.'),
    offsetX: z.number().int().min(0).max(10_000).optional(),
    offsetY: z.number().int().min(0).max(10_000).optional(),
  })
  .strict();

const textBlock = z.object({ headline: headline(200).optional(), body: paragraphs(1000) }).strict();

/** The module subset: STANDARD_TEXT and STANDARD_SINGLE_IMAGE_HIGHLIGHTS, plain text (no decorators). */
const contentModule = z.discriminatedUnion('type', [
  z.object({ type: z.literal('STANDARD_TEXT'), headline: headline(160).optional(), body: paragraphs(5000) }).strict(),
  z
    .object({
      type: z.literal('STANDARD_SINGLE_IMAGE_HIGHLIGHTS'),
      image: image.optional(),
      headline: headline(160).optional(),
      textBlocks: z.array(textBlock).min(1).max(3).optional(),
      bulletsHeadline: headline(200).optional(),
      bullets: z.array(z.string().trim().min(1).max(250)).min(1).max(8).optional(),
    })
    .strict(),
]);

/** The fields of a content document (ContentDocument), shared by ADD, UPDATE and VALIDATE. */
const documentShape = {
  name: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .describe("The document's name in Seller/Vendor Central, not shown to customers."),
  contentType: z
    .enum(['EBC', 'EMC'])
    .default('EBC')
    .describe('EBC: A+ content of a brand; EMC: A+ content of a vendor (Enhanced Marketing Content).'),
  contentSubType: z.string().trim().min(1).max(100).optional(),
  locale: z
    .string()
    .regex(/^[a-z]{2}_[A-Z]{2}$/, 'a locale such as en_US')
    .describe('The language of the text, one the marketplace supports (en_US in the US).'),
  modules: z.array(contentModule).min(1).max(5).describe('At most 5 standard modules, shown in this order.'),
};
type DocumentDetails = z.output<z.ZodObject<typeof documentShape>>;
type Module = z.output<typeof contentModule>;

const text = (value: string) => ({ value });
const paragraph = (values: string[]) => ({ textList: values.map(text) });
const optional = <K extends string, V>(key: K, value: V | undefined) =>
  value === undefined ? {} : ({ [key]: value } as Record<K, V>);

/** An ImageComponent: the crop as given, in pixels. */
const imageComponent = (i: z.output<typeof image>) => ({
  uploadDestinationId: i.uploadDestinationId,
  altText: i.altText,
  imageCropSpecification: {
    size: { width: { value: i.width, units: 'pixels' }, height: { value: i.height, units: 'pixels' } },
    ...(i.offsetX !== undefined || i.offsetY !== undefined
      ? { offset: { x: { value: i.offsetX ?? 0, units: 'pixels' }, y: { value: i.offsetY ?? 0, units: 'pixels' } } }
      : {}),
  },
});

/** A module of `details` as the model's ContentModule. */
function upstreamModule(m: Module): Record<string, unknown> {
  if (m.type === 'STANDARD_TEXT')
    return {
      contentModuleType: m.type,
      standardText: { ...optional('headline', m.headline && text(m.headline)), body: paragraph(m.body) },
    };
  const blocks = Object.fromEntries(
    (m.textBlocks ?? []).map((b, i) => [
      `textBlock${i + 1}`,
      { ...optional('headline', b.headline && text(b.headline)), body: paragraph(b.body) },
    ]),
  );
  return {
    contentModuleType: m.type,
    standardSingleImageHighlights: {
      ...optional('image', m.image && imageComponent(m.image)),
      ...optional('headline', m.headline && text(m.headline)),
      ...blocks,
      ...(m.bullets
        ? {
            bulletedListBlock: {
              ...optional('headline', m.bulletsHeadline && text(m.bulletsHeadline)),
              block: { textList: m.bullets.map((b, i) => ({ position: i + 1, text: text(b) })) },
            },
          }
        : {}),
    },
  };
}

/** A PostContentDocumentRequest of the document's fields in `details`. */
const contentDocument = (d: DocumentDetails) => ({
  contentDocument: {
    name: d.name,
    contentType: d.contentType,
    ...optional('contentSubType', d.contentSubType),
    locale: d.locale,
    contentModuleList: d.modules.map(upstreamModule),
  },
});

type Message = { code: string; message: string; details?: string };
/** A write's answer: COMPLETED, or COMPLETED_WITH_ISSUES when the marketplace added warnings. */
const written = (result: Record<string, unknown>, warnings: Message[] = []): ActionOutcome => ({
  status: warnings.length > 0 ? 'COMPLETED_WITH_ISSUES' : 'COMPLETED',
  result: { ...result, warnings },
});

/** An A+ Content operation for the action's marketplace. */
const aplus = <T>(
  ctx: ActionContext,
  operation: string,
  method: 'GET' | 'POST',
  path: string,
  query: Record<string, string | undefined> = {},
  body?: unknown,
) =>
  ctx
    .sp()
    .request<T>(operation, {
      method,
      path: `${BASE}${path}`,
      query: { marketplaceId: ctx.marketplaceId, ...query },
      ...(body === undefined ? {} : { body }),
    })
    .then((r) => r.body);
const documentPath = (key: string, tail = '') => `/contentDocuments/${encodeURIComponent(key)}${tail}`;

interface ContentRecord {
  contentReferenceKey: string;
  contentMetadata?: { name: string; status: 'APPROVED' | 'DRAFT' | 'REJECTED' | 'SUBMITTED'; updateTime: string };
  contentDocument?: unknown;
}
/** getContentDocument with the data sets asked for. */
const getDocument = (ctx: ActionContext, key: string, sets: string) =>
  aplus<{ contentRecord: ContentRecord }>(ctx, 'getContentDocument', 'GET', documentPath(key), {
    includedDataSet: sets,
  }).then((b) => b.contentRecord);

/** PUBLISH's check: the document's review status (SUBMITTED waits, APPROVED completes, REJECTED is invalid input). */
async function reviewOutcome(ctx: ActionContext, key: string): Promise<ActionOutcome> {
  const record = await getDocument(ctx, key, 'METADATA');
  const status = record.contentMetadata?.status;
  const result = { contentReferenceKey: key, status, updateTime: record.contentMetadata?.updateTime };
  if (status === 'SUBMITTED') return waiting(key, result, REVIEW_CHECK_MS);
  if (status === 'APPROVED') return completed(result);
  if (status === 'REJECTED')
    return {
      status: 'BLOCKED_INVALID_INPUT',
      result,
      error: {
        status: 400,
        code: 'CONTENT_REJECTED',
        message: 'The marketplace rejected the A+ content: MKT_APLUS_CONTENT_VALIDATE lists its issues.',
      },
    };
  return {
    status: 'ERROR',
    result,
    error: {
      status: 409,
      code: 'CONTENT_NOT_SUBMITTED',
      message: `The document is ${String(status)}: it was changed after the submission; publish it again.`,
    },
  };
}

const exampleModules = [
  {
    type: 'STANDARD_TEXT',
    headline: 'Built for the trail',
    body: ['Every Acme daypack is tested on real trails before it reaches you.'],
  },
  {
    type: 'STANDARD_SINGLE_IMAGE_HIGHLIGHTS',
    image: {
      uploadDestinationId: 'aplus-media/sc/3c2a9f0e-5d0b-4c3e-9a51-7f0f6b1d2e8a.jpg',
      altText: 'Acme 22L Daypack on a trail',
      width: 300,
      height: 300,
    },
    headline: 'Why hikers pick it',
    bullets: ['Padded laptop sleeve', 'Weighs 600 g', 'Water-resistant fabric'],
  },
];

/**
 * The A+ content types (A+ Content API 2020-11-01, models/aplus-content-api-model/aplusContent_2020-11-01.json), for
 * sellers and vendors: documents are written with a subset of the modules (STANDARD_TEXT and
 * STANDARD_SINGLE_IMAGE_HIGHLIGHTS, plain text), related to ASINs, validated, submitted for review (the marketplace
 * approves later: PUBLISH waits for it) and suspended; finds read documents, their ASINs and the publish records.
 */
export const aplusActions: ActionGroup = {
  MKT_APLUS_CONTENT_ADD: define(
    z
      .object(documentShape)
      .strict()
      .meta({ examples: [{ name: 'Acme Daypack – trail story', locale: 'en_US', modules: exampleModules }] }),
    async (ctx, d) => {
      const body = await aplus<{ contentReferenceKey: string; warnings?: Message[] }>(
        ctx,
        'createContentDocument',
        'POST',
        '/contentDocuments',
        {},
        contentDocument(d),
      );
      return written({ contentReferenceKey: body.contentReferenceKey }, body.warnings);
    },
  ),
  MKT_APLUS_CONTENT_UPDATE: define(
    z
      .object({ contentReferenceKey, ...documentShape })
      .strict()
      .describe('Replaces the whole document; it is a draft again until published.')
      .meta({
        examples: [
          {
            contentReferenceKey: DEMO_KEY,
            name: 'Acme Daypack – brand story',
            locale: 'en_US',
            modules: [
              {
                type: 'STANDARD_TEXT',
                headline: 'Built for the trail',
                body: ['Tested in the mountains since 1998.', "Made to carry a day's gear in comfort."],
              },
            ],
          },
        ],
      }),
    async (ctx, { contentReferenceKey: key, ...d }) => {
      const body = await aplus<{ contentReferenceKey: string; warnings?: Message[] }>(
        ctx,
        'updateContentDocument',
        'POST',
        documentPath(key),
        {},
        contentDocument(d),
      );
      return written({ contentReferenceKey: body.contentReferenceKey }, body.warnings);
    },
  ),
  MKT_APLUS_CONTENT_FIND: define(
    z
      .object({
        contentReferenceKey: contentReferenceKey
          .optional()
          .describe("One document with its contents; without, every document's metadata, a page at a time."),
        pageToken,
      })
      .strict()
      .refine((d) => !(d.contentReferenceKey && d.pageToken), {
        message: 'pageToken pages the list of documents: not with contentReferenceKey',
        path: ['pageToken'],
      })
      .meta({ examples: [{ contentReferenceKey: DEMO_KEY }] }),
    async (ctx, d) => {
      if (d.contentReferenceKey) return completed(await getDocument(ctx, d.contentReferenceKey, 'CONTENTS,METADATA'));
      const body = await aplus<{ contentMetadataRecords: unknown[]; nextPageToken?: string }>(
        ctx,
        'searchContentDocuments',
        'GET',
        '/contentDocuments',
        { pageToken: d.pageToken },
      );
      return completed({
        contentMetadataRecords: body.contentMetadataRecords,
        nextPageToken: body.nextPageToken ?? null,
      });
    },
  ),
  MKT_APLUS_CONTENT_ASINS_UPDATE: define(
    z
      .object({
        contentReferenceKey,
        asins: z
          .array(asin)
          .max(100)
          .describe("Replaces the document's ASINs: an ASIN left out no longer shows it; empty removes them all."),
      })
      .strict()
      .refine((d) => new Set(d.asins).size === d.asins.length, { message: 'holds an ASIN twice', path: ['asins'] })
      .meta({ examples: [{ contentReferenceKey: DEMO_KEY, asins: ['B0NB0P6V0A', 'B0D8SM9EZR'] }] }),
    async (ctx, d) => {
      const body = await aplus<{ warnings?: Message[] }>(
        ctx,
        'postContentDocumentAsinRelations',
        'POST',
        documentPath(d.contentReferenceKey, '/asins'),
        {},
        { asinSet: d.asins },
      );
      return written({ contentReferenceKey: d.contentReferenceKey, asins: d.asins }, body.warnings);
    },
  ),
  MKT_APLUS_CONTENT_ASINS_FIND: define(
    z
      .object({
        contentReferenceKey,
        asins: z.array(asin).min(1).max(100).optional().describe('Only these of its ASINs; without, all.'),
        pageToken,
      })
      .strict()
      .meta({ examples: [{ contentReferenceKey: DEMO_KEY }] }),
    async (ctx, d) => {
      const body = await aplus<{ asinMetadataSet: unknown[]; nextPageToken?: string }>(
        ctx,
        'listContentDocumentAsinRelations',
        'GET',
        documentPath(d.contentReferenceKey, '/asins'),
        {
          includedDataSet: 'METADATA',
          asinSet: d.asins?.join(','),
          pageToken: d.pageToken,
        },
      );
      return completed({ asinMetadataSet: body.asinMetadataSet, nextPageToken: body.nextPageToken ?? null });
    },
  ),
  MKT_APLUS_CONTENT_VALIDATE: define(
    z
      .object({
        asins: z
          .array(asin)
          .min(1)
          .max(100)
          .optional()
          .describe('The ASINs the document is meant for; without, the content alone is checked.'),
        ...documentShape,
      })
      .strict()
      .meta({
        examples: [
          { asins: ['B0NB0P6V0A'], name: 'Acme Daypack – trail story', locale: 'en_US', modules: exampleModules },
        ],
      }),
    async (ctx, { asins, ...d }) => {
      const body = await aplus<{ errors: Message[]; warnings?: Message[] }>(
        ctx,
        'validateContentDocumentAsinRelations',
        'POST',
        '/contentAsinValidations',
        { asinSet: asins?.join(',') },
        contentDocument(d),
      );
      return completed({ valid: body.errors.length === 0, errors: body.errors, warnings: body.warnings ?? [] });
    },
  ),
  MKT_APLUS_CONTENT_PUBLISH: define(
    z
      .object({ contentReferenceKey })
      .strict()
      .describe('Submits the document for review; the action waits until the marketplace approves or rejects it.')
      .meta({ examples: [{ contentReferenceKey: DEMO_KEY }] }),
    async (ctx, d) => {
      const body = await aplus<{ warnings?: Message[] }>(
        ctx,
        'postContentDocumentApprovalSubmission',
        'POST',
        documentPath(d.contentReferenceKey, '/approvalSubmissions'),
      );
      return waiting(
        d.contentReferenceKey,
        { contentReferenceKey: d.contentReferenceKey, status: 'SUBMITTED', warnings: body.warnings ?? [] },
        REVIEW_CHECK_MS,
      );
    },
    (ctx, key) => reviewOutcome(ctx, key),
  ),
  MKT_APLUS_CONTENT_SUSPEND: define(
    z
      .object({ contentReferenceKey })
      .strict()
      .describe('Stops showing the document on its ASINs; the document and its ASINs are kept.')
      .meta({ examples: [{ contentReferenceKey: DEMO_KEY }] }),
    async (ctx, d) => {
      const body = await aplus<{ warnings?: Message[] }>(
        ctx,
        'postContentDocumentSuspendSubmission',
        'POST',
        documentPath(d.contentReferenceKey, '/suspendSubmissions'),
      );
      return written({ contentReferenceKey: d.contentReferenceKey }, body.warnings);
    },
  ),
  MKT_APLUS_CONTENT_PUBLISH_RECORDS_FIND: define(
    z
      .object({ asin: asin.describe('The A+ content published on this ASIN.'), pageToken })
      .strict()
      .meta({ examples: [{ asin: 'B0NB0P6V0A' }] }),
    async (ctx, d) => {
      const body = await aplus<{ publishRecordList: unknown[]; nextPageToken?: string }>(
        ctx,
        'searchContentPublishRecords',
        'GET',
        '/contentPublishRecords',
        { asin: d.asin, pageToken: d.pageToken },
      );
      return completed({ publishRecords: body.publishRecordList, nextPageToken: body.nextPageToken ?? null });
    },
  ),
};
