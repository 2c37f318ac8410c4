import { createHash, randomUUID } from 'node:crypto';
import type { FakeSeller } from '../data/sellers.ts';
import { decodeToken, encodeToken } from './paging.ts';
import { invalidInput, SpError } from './sp-error.ts';
import { listParam, type SpAnswer, type SpContext, type SpRoute } from './sp-routes.ts';

/** How long the marketplace takes to review a submitted document, on the fake's clock. */
export const APLUS_REVIEW_MS = 60_000;
const PAGE_SIZE = 20;
const BASE = '/aplus/2020-11-01';
const MODULE_TYPES = [
  'STANDARD_COMPANY_LOGO',
  'STANDARD_COMPARISON_TABLE',
  'STANDARD_FOUR_IMAGE_TEXT',
  'STANDARD_FOUR_IMAGE_TEXT_QUADRANT',
  'STANDARD_HEADER_IMAGE_TEXT',
  'STANDARD_IMAGE_SIDEBAR',
  'STANDARD_IMAGE_TEXT_OVERLAY',
  'STANDARD_MULTIPLE_IMAGE_TEXT',
  'STANDARD_PRODUCT_DESCRIPTION',
  'STANDARD_SINGLE_IMAGE_HIGHLIGHTS',
  'STANDARD_SINGLE_IMAGE_SPECS_DETAIL',
  'STANDARD_SINGLE_SIDE_IMAGE',
  'STANDARD_TECH_SPECS',
  'STANDARD_TEXT',
  'STANDARD_THREE_IMAGE_TEXT',
];
/** The locales A+ content may be written in, by marketplace (the fake knows the demo's two). */
const LOCALES: Record<string, string[]> = { ATVPDKIKX0DER: ['en_US', 'es_US'], A1PA6795UKMFR9: ['de_DE', 'en_GB'] };
/** What the review refuses: prices, promotions, shipping offers, guarantees and best-seller claims. */
const POLICY = /(\$\s?\d|€\s?\d|\d+\s?%\s*off|free shipping|discount|\bsale\b|guarantee|best[- ]?sell)/i;

type Doc = Record<string, unknown> & {
  name: string;
  contentType: string;
  contentSubType?: string;
  locale: string;
  contentModuleList: Record<string, unknown>[];
};

/**
 * One content document of an account: what was last sent, its review status, its ASINs, and the approved version shown.
 */
interface StoredDocument {
  key: string;
  document: Doc;
  status: 'DRAFT' | 'SUBMITTED' | 'APPROVED' | 'REJECTED';
  updateTime: number;
  submittedAt: number | null;
  asins: string[];
  /** The approved version the related ASINs' detail pages show; null before approval or once suspended. */
  live: Doc | null;
}

/** A deterministic content reference key (UUID form) for the document an account starts with. */
export const seedContentReferenceKey = (sellerId: string): string => {
  const h = createHash('sha256').update(`aplus/${sellerId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

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

/** The document an account starts with: a published STANDARD_TEXT story on its day pack (or first listing). */
function seedDocument(seller: FakeSeller, asins: string[], packAsin: string | undefined): StoredDocument {
  const de = seller.countryCode === 'DE';
  const document: Doc = {
    name: de ? 'Acme Tagesrucksack – Markengeschichte' : 'Acme Daypack – brand story',
    contentType: 'EBC',
    locale: de ? 'de_DE' : 'en_US',
    contentModuleList: [
      {
        contentModuleType: 'STANDARD_TEXT',
        standardText: {
          headline: { value: de ? 'Für den Trail gebaut' : 'Built for the trail' },
          body: {
            textList: [{ value: de ? 'Seit 1998 in den Bergen getestet.' : 'Tested in the mountains since 1998.' }],
          },
        },
      },
    ],
  };
  const asin = packAsin ?? asins[0];
  return {
    key: seedContentReferenceKey(seller.sellerId),
    document,
    status: 'APPROVED',
    updateTime: Date.parse(`${seller.openedOn}T00:00:00Z`),
    submittedAt: null,
    asins: asin ? [asin] : [],
    live: document,
  };
}

/** Every string of a document a customer reads (text values, alt texts). */
const texts = (value: unknown): string[] => {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(texts);
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) =>
      k === 'value' || k === 'altText' || typeof v === 'object' ? texts(v) : [],
    );
  return [];
};
/** The review's findings on a document: a policy message per offending text. */
const policyIssues = (document: Doc) =>
  texts(document)
    .filter((t) => POLICY.test(t))
    .map((t) => ({
      code: 'CONTENT_POLICY_VIOLATION',
      message: 'A+ content may not mention prices, promotions, shipping offers, guarantees or best-seller claims.',
      details: t.slice(0, 200),
    }));

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const camel = (type: string) => type.toLowerCase().replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** Checks the components inside a module: text components, paragraphs and images as the model requires them. */
function checkComponents(value: unknown, where: string): void {
  if (Array.isArray(value)) return value.forEach((v, i) => checkComponents(v, `${where}[${i}]`));
  if (!isObject(value)) return;
  if ('textList' in value && !Array.isArray(value.textList)) throw invalidInput(`${where}.textList must be an array.`);
  if (
    'value' in value &&
    !('units' in value) &&
    (typeof value.value !== 'string' || value.value.length < 1 || value.value.length > 10_000)
  )
    throw invalidInput(`${where}.value must be 1 to 10000 characters.`);
  if ('uploadDestinationId' in value) {
    const size =
      isObject(value.imageCropSpecification) && isObject(value.imageCropSpecification.size)
        ? value.imageCropSpecification.size
        : null;
    if (typeof value.uploadDestinationId !== 'string' || !value.uploadDestinationId)
      throw invalidInput(`${where}.uploadDestinationId is required.`);
    if (typeof value.altText !== 'string' || value.altText.length < 1 || value.altText.length > 100)
      throw invalidInput(`${where}.altText must be 1 to 100 characters.`);
    if (
      !size ||
      !isObject(size.width) ||
      !isObject(size.height) ||
      !Number.isInteger(size.width.value) ||
      !Number.isInteger(size.height.value)
    )
      throw invalidInput(`${where}.imageCropSpecification.size needs integer width and height.`);
  }
  for (const [k, v] of Object.entries(value)) checkComponents(v, `${where}.${k}`);
}

/**
 * The `contentDocument` of a PostContentDocumentRequest, checked against the model (400 InvalidInput naming the field).
 */
function contentDocument(ctx: SpContext): Doc {
  const doc = isObject(ctx.body) ? ctx.body.contentDocument : undefined;
  if (!isObject(doc)) throw invalidInput('contentDocument is required.');
  if (typeof doc.name !== 'string' || doc.name.length < 1 || doc.name.length > 100)
    throw invalidInput('contentDocument.name must be 1 to 100 characters.');
  if (doc.contentType !== 'EBC' && doc.contentType !== 'EMC')
    throw invalidInput('contentDocument.contentType must be EBC or EMC.');
  if (typeof doc.locale !== 'string' || doc.locale.length < 5)
    throw invalidInput('contentDocument.locale is required.');
  if (!(LOCALES[ctx.seller.marketplaceId] ?? []).includes(doc.locale))
    throw invalidInput(
      `contentDocument.locale ${doc.locale} is not supported in marketplace ${ctx.seller.marketplaceId}.`,
    );
  const modules = doc.contentModuleList;
  if (!Array.isArray(modules) || modules.length < 1 || modules.length > 100)
    throw invalidInput('contentDocument.contentModuleList must hold 1 to 100 modules.');
  modules.forEach((m: unknown, i) => {
    const where = `contentDocument.contentModuleList[${i}]`;
    if (!isObject(m) || !MODULE_TYPES.includes(String(m.contentModuleType)))
      throw invalidInput(`${where}.contentModuleType is missing or unknown.`);
    const body = m[camel(String(m.contentModuleType))];
    if (!isObject(body))
      throw invalidInput(
        `${where}.${camel(String(m.contentModuleType))} is required for ${String(m.contentModuleType)}.`,
      );
    if (
      m.contentModuleType === 'STANDARD_TEXT' &&
      !(isObject(body.body) && Array.isArray(body.body.textList) && body.body.textList.length > 0)
    )
      throw invalidInput(`${where}.standardText.body.textList is required.`);
    checkComponents(body, `${where}.${camel(String(m.contentModuleType))}`);
  });
  return doc as Doc;
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
