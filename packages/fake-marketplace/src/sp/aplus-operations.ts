import { randomUUID } from 'node:crypto';
import { contentDocument, isObject, policyIssues, seedDocument, type StoredDocument } from './aplus-documents.ts';
import { decodeToken, encodeToken } from './paging.ts';
import { invalidInput, SpError } from './sp-error.ts';
import { listParam, type SpAnswer, type SpContext, type SpRoute } from './sp-routes.ts';

/** How long the marketplace takes to review a submitted document, on the fake's clock. */
export const APLUS_REVIEW_MS = 60_000;
const PAGE_SIZE = 20;
const BASE = '/aplus/2020-11-01';

/** The ASINs of the seller's catalog in its marketplace, with title and image (AsinMetadata). */
function catalog(ctx: SpContext): Map<string, { title: string; imageUrl: string }> {
  const items = ctx.state.data.listingsItems(ctx.seller, ctx.at);
  const byAsin = new Map<string, { title: string; imageUrl: string }>();
  for (const item of items) {
    const summary = (item.summaries as { asin: string; itemName: string; mainImage: { link: string } }[])[0]!;
    if (!byAsin.has(summary.asin))
      byAsin.set(summary.asin, { title: summary.itemName, imageUrl: summary.mainImage.link });
  }
  return byAsin;
}

const iso = (ms: number) => new Date(ms).toISOString();
const metadata = (ctx: SpContext, d: StoredDocument) => ({
  name: d.document.name,
  marketplaceId: ctx.seller.marketplaceId,
  status: d.status,
  badgeSet: ['STANDARD'],
  updateTime: iso(d.updateTime),
});

/** A page of `all` by `pageToken` (400 when it is not one of this listing's), with the next token. */
function page<T>(ctx: SpContext, all: T[], scope: string): { items: T[]; nextPageToken?: string } {
  const offset = ctx.query.pageToken === undefined ? 0 : (decodeToken(ctx.query.pageToken, scope)?.offset ?? -1);
  if (offset < 0) throw invalidInput('The pageToken is invalid.');
  const next =
    offset + PAGE_SIZE < all.length ? encodeToken({ offset: offset + PAGE_SIZE, scope, issuedAt: ctx.at }) : undefined;
  return { items: all.slice(offset, offset + PAGE_SIZE), ...(next ? { nextPageToken: next } : {}) };
}

/** The A+ Content operations (A+ Content API 2020-11-01), state per account in the factory's closure. */
export function aplusRoutes(): SpRoute[] {
  const accounts = new Map<string, Map<string, StoredDocument>>();

  /** The account's documents (the seed document at first use), each with a finished review settled as of now. */
  const documents = (ctx: SpContext): Map<string, StoredDocument> => {
    const id = `${ctx.seller.sellerId}/${ctx.seller.marketplaceId}`;
    let docs = accounts.get(id);
    if (!docs) {
      const pack = ctx.state.data.listingsItems(ctx.seller, ctx.at).find((i) => i.sku === 'ACM-PACK-DAY-BLK');
      const seed = seedDocument(
        ctx.seller,
        [...catalog(ctx).keys()],
        pack ? (pack.summaries as { asin: string }[])[0]!.asin : undefined,
      );
      accounts.set(id, (docs = new Map([[seed.key, seed]])));
    }
    for (const d of docs.values()) settle(d, ctx.at);
    return docs;
  };
  /** A SUBMITTED document whose review time has passed: APPROVED (and shown) or REJECTED by the policy check. */
  const settle = (d: StoredDocument, at: number) => {
    if (d.status !== 'SUBMITTED' || d.submittedAt === null || at - d.submittedAt < APLUS_REVIEW_MS) return;
    const rejected = policyIssues(d.document).length > 0;
    d.status = rejected ? 'REJECTED' : 'APPROVED';
    d.updateTime = d.submittedAt + APLUS_REVIEW_MS;
    d.submittedAt = null;
    if (!rejected) d.live = d.document;
  };
  /** The marketplaceId every operation requires: the account's own. */
  const marketplace = (ctx: SpContext) => {
    if (!ctx.query.marketplaceId) throw invalidInput('marketplaceId is required.');
    if (ctx.query.marketplaceId !== ctx.seller.marketplaceId)
      throw invalidInput(`Invalid marketplaceId ${ctx.query.marketplaceId}.`);
  };
  /** The document named by the path's content reference key, or 404. */
  const stored = (ctx: SpContext): StoredDocument => {
    marketplace(ctx);
    const d = documents(ctx).get(ctx.params[0]!);
    if (!d) throw new SpError(404, 'NotFound', `Content reference key ${ctx.params[0]} was not found.`);
    return d;
  };
  const ok = (body: unknown = {}): SpAnswer => ({ status: 200, body });

  const search = (ctx: SpContext) => {
    marketplace(ctx);
    const all = [...documents(ctx).values()].sort((a, b) => b.updateTime - a.updateTime || a.key.localeCompare(b.key));
    const { items, nextPageToken } = page(ctx, all, `aplus/documents/${ctx.seller.sellerId}`);
    return ok({
      contentMetadataRecords: items.map((d) => ({ contentReferenceKey: d.key, contentMetadata: metadata(ctx, d) })),
      ...(nextPageToken ? { nextPageToken } : {}),
    });
  };
  const create = (ctx: SpContext) => {
    marketplace(ctx);
    const document = contentDocument(ctx);
    const key = randomUUID();
    documents(ctx).set(key, {
      key,
      document,
      status: 'DRAFT',
      updateTime: ctx.at,
      submittedAt: null,
      asins: [],
      live: null,
    });
    return ok({ contentReferenceKey: key });
  };
  const get = (ctx: SpContext) => {
    const d = stored(ctx);
    const sets = listParam(ctx, 'includedDataSet');
    if (sets.length === 0 || sets.some((s) => s !== 'CONTENTS' && s !== 'METADATA'))
      throw invalidInput('includedDataSet is required: CONTENTS, METADATA or both.');
    return ok({
      contentRecord: {
        contentReferenceKey: d.key,
        ...(sets.includes('METADATA') ? { contentMetadata: metadata(ctx, d) } : {}),
        ...(sets.includes('CONTENTS') ? { contentDocument: d.document } : {}),
      },
    });
  };
  const update = (ctx: SpContext) => {
    const d = stored(ctx);
    Object.assign(d, { document: contentDocument(ctx), status: 'DRAFT', updateTime: ctx.at, submittedAt: null });
    return ok({ contentReferenceKey: d.key });
  };
  const listAsins = (ctx: SpContext) => {
    const d = stored(ctx);
    const only = listParam(ctx, 'asinSet');
    const withMetadata = listParam(ctx, 'includedDataSet').includes('METADATA');
    const known = catalog(ctx);
    const all = d.asins
      .filter((a) => only.length === 0 || only.includes(a))
      .map((asin) =>
        withMetadata
          ? {
              asin,
              badgeSet: [d.live ? 'CONTENT_PUBLISHED' : 'CONTENT_NOT_PUBLISHED'],
              ...known.get(asin),
              contentReferenceKeySet: [...documents(ctx).values()]
                .filter((o) => o.asins.includes(asin))
                .map((o) => o.key),
            }
          : { asin },
      );
    const { items, nextPageToken } = page(ctx, all, `aplus/asins/${d.key}/${only.join(',')}/${withMetadata}`);
    return ok({ asinMetadataSet: items, ...(nextPageToken ? { nextPageToken } : {}) });
  };
  const postAsins = (ctx: SpContext) => {
    const d = stored(ctx);
    const asins = isObject(ctx.body) ? ctx.body.asinSet : undefined;
    if (!Array.isArray(asins) || asins.some((a) => typeof a !== 'string' || a.length < 10))
      throw invalidInput('asinSet is required: an array of ASINs.');
    const known = catalog(ctx);
    const unknown = asins.filter((a: string) => !known.has(a));
    if (unknown.length > 0)
      throw invalidInput(`ASINs not found in marketplace ${ctx.seller.marketplaceId}: ${unknown.join(', ')}.`);
    d.asins = [...new Set(asins as string[])];
    return ok();
  };
  const validate = (ctx: SpContext) => {
    marketplace(ctx);
    const document = contentDocument(ctx);
    const known = catalog(ctx);
    const asinErrors = listParam(ctx, 'asinSet')
      .filter((a) => !known.has(a))
      .map((a) => ({
        code: 'CATALOG_NOT_FOUND',
        message: `ASIN ${a} was not found in the catalog of marketplace ${ctx.seller.marketplaceId}.`,
        details: a,
      }));
    return ok({ errors: [...asinErrors, ...policyIssues(document)] });
  };
  const publishRecords = (ctx: SpContext) => {
    marketplace(ctx);
    const asin = ctx.query.asin;
    if (!asin || asin.length < 10) throw invalidInput('asin is required.');
    const all = [...documents(ctx).values()]
      .filter((d) => d.live && d.asins.includes(asin))
      .map((d) => ({
        marketplaceId: ctx.seller.marketplaceId,
        locale: d.live!.locale,
        asin,
        contentType: d.live!.contentType,
        ...(d.live!.contentSubType ? { contentSubType: d.live!.contentSubType } : {}),
        contentReferenceKey: d.key,
      }));
    const { items, nextPageToken } = page(ctx, all, `aplus/records/${ctx.seller.sellerId}/${asin}`);
    return ok({ publishRecordList: items, ...(nextPageToken ? { nextPageToken } : {}) });
  };
  const submit = (ctx: SpContext) => {
    const d = stored(ctx);
    if (d.asins.length === 0)
      throw invalidInput(`Content document ${d.key} has no related ASINs: add ASINs before submitting it.`);
    if (d.status !== 'SUBMITTED') Object.assign(d, { status: 'SUBMITTED', submittedAt: ctx.at, updateTime: ctx.at });
    return ok();
  };
  const suspend = (ctx: SpContext) => {
    stored(ctx).live = null;
    return ok();
  };

  const key = '([^/]+)';
  return [
    {
      method: 'GET',
      pattern: new RegExp(`^${BASE}/contentDocuments$`),
      operation: 'searchContentDocuments',
      handler: search,
    },
    {
      method: 'POST',
      pattern: new RegExp(`^${BASE}/contentDocuments$`),
      operation: 'createContentDocument',
      handler: create,
    },
    {
      method: 'GET',
      pattern: new RegExp(`^${BASE}/contentDocuments/${key}$`),
      operation: 'getContentDocument',
      handler: get,
    },
    {
      method: 'POST',
      pattern: new RegExp(`^${BASE}/contentDocuments/${key}$`),
      operation: 'updateContentDocument',
      handler: update,
    },
    {
      method: 'GET',
      pattern: new RegExp(`^${BASE}/contentDocuments/${key}/asins$`),
      operation: 'listContentDocumentAsinRelations',
      handler: listAsins,
    },
    {
      method: 'POST',
      pattern: new RegExp(`^${BASE}/contentDocuments/${key}/asins$`),
      operation: 'postContentDocumentAsinRelations',
      handler: postAsins,
    },
    {
      method: 'POST',
      pattern: new RegExp(`^${BASE}/contentAsinValidations$`),
      operation: 'validateContentDocumentAsinRelations',
      handler: validate,
    },
    {
      method: 'GET',
      pattern: new RegExp(`^${BASE}/contentPublishRecords$`),
      operation: 'searchContentPublishRecords',
      handler: publishRecords,
    },
    {
      method: 'POST',
      pattern: new RegExp(`^${BASE}/contentDocuments/${key}/approvalSubmissions$`),
      operation: 'postContentDocumentApprovalSubmission',
      handler: submit,
    },
    {
      method: 'POST',
      pattern: new RegExp(`^${BASE}/contentDocuments/${key}/suspendSubmissions$`),
      operation: 'postContentDocumentSuspendSubmission',
      handler: suspend,
    },
  ];
}
