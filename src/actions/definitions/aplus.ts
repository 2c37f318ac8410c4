import { z } from 'zod';
import { completed, define, waiting, type ActionGroup } from './define.ts';
import {
  aplus,
  documentPath,
  getDocument,
  REVIEW_CHECK_MS,
  reviewOutcome,
  written,
  type Message,
} from './aplus-client.ts';
import {
  asin,
  contentDocument,
  contentReferenceKey,
  documentShape,
  exampleModules,
  pageToken,
} from './aplus-documents.ts';
import { alone, distinct, ruled } from './rules.ts';

/** The demo US seller's published A+ document (the fake's seed): what the examples act on. */
const DEMO_KEY = '2ac78a27-1adf-46b7-adfb-f6b71c11ab07';

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
    ruled(
      z
        .object({
          contentReferenceKey: contentReferenceKey
            .optional()
            .describe("One document with its contents; without, every document's metadata, a page at a time."),
          pageToken,
        })
        .strict(),
      alone(
        'contentReferenceKey',
        ['pageToken'],
        'pageToken pages the list of documents: not with contentReferenceKey',
        ['pageToken'],
      ),
    ).meta({ examples: [{ contentReferenceKey: DEMO_KEY }] }),
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
        asins: ruled(z.array(asin).max(100), distinct('holds an ASIN twice')).describe(
          "Replaces the document's ASINs: an ASIN left out no longer shows it; empty removes them all.",
        ),
      })
      .strict()
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
