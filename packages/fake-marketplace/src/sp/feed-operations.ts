import { randomUUID } from 'node:crypto';
import { PRODUCTS } from '../data/products.ts';
import type { DocumentStore } from '../documents.ts';
import { invalidInput, SpError } from './sp-error.ts';
import type { SpContext, SpRoute } from './sp-routes.ts';

type Status = 'IN_QUEUE' | 'IN_PROGRESS' | 'DONE' | 'FATAL' | 'CANCELLED';
/** A created feed: what it was given, and (once processed) how it ended. */
interface Feed {
  feedId: string;
  feedType: string;
  marketplaceIds: string[];
  createdTime: number;
  inputFeedDocumentId: string;
  status: Status;
  endTime: number | null;
  resultFeedDocumentId: string | null;
}
/** One problem of a record, as the processing report lists it. */
type Problem = { code: string; type: 'Error' | 'Warning'; message: string };

/** The processing takes ~2 minutes on the clock: queued for 30 s, then in progress. */
const QUEUED_MS = 30_000;
const PROCESSED_MS = 120_000;
const ORDER_ID = /^\d{3}-\d{7}-\d{7}$/;
/** OrderAcknowledgement CancelReason values (OrderAcknowledgement.xsd, also the flat file's cancel-reason). */
export const CANCEL_REASONS = [
  'NoInventory',
  'ShippingAddressUndeliverable',
  'CustomerExchange',
  'BuyerCanceled',
  'GeneralAdjustment',
  'CarrierCreditDecision',
  'RiskAssessmentInformationNotValid',
  'CarrierCoverageFailure',
  'CustomerReturn',
  'MerchandiseNotReceived',
] as const;
const RETURN_ADDRESS = [
  'AddressName',
  'AddressFieldOne',
  'AddressCity',
  'AddressCountryCode',
  'AddressStateOrRegion',
  'AddressPostalCode',
];

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const documentId = () =>
  `amzn1.tortuga.4.na.${randomUUID()}.T${Math.floor(Math.random() * 36 ** 10)
    .toString(36)
    .toUpperCase()}`;
const problem = (code: string, message: string): Problem => ({ code, type: 'Error', message });

/** The records of a tab-delimited flat file: one object per line after the header row, keyed by column. */
function records(text: string): Record<string, string>[] {
  const [header, ...lines] = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const columns = (header ?? '').split('\t').map((c) => c.trim());
  return lines
    .filter((l) => l.trim())
    .map((l) => Object.fromEntries(l.split('\t').map((v, i) => [columns[i] ?? `column-${i + 1}`, v.trim()])));
}

/** POST_FLAT_FILE_ORDER_ACKNOWLEDGEMENT_DATA: a 3-7-7 order-id, and a known cancel-reason when one is given. */
function acknowledgementProblems(r: Record<string, string>): Problem[] {
  const problems: Problem[] = [];
  if (!ORDER_ID.test(r['order-id'] ?? ''))
    problems.push(
      problem('18028', `The order-id ${r['order-id'] ?? ''} is not a valid Amazon order ID (3-7-7 digits).`),
    );
  const reason = r['cancel-reason'] ?? '';
  if (reason && !(CANCEL_REASONS as readonly string[]).includes(reason))
    problems.push(problem('90006', `The cancel-reason ${reason} is not one of ${CANCEL_REASONS.join(', ')}.`));
  return problems;
}

/**
 * POST_FLAT_FILE_FBA_CREATE_REMOVAL: an order id, Return (with its address) or Disposal, a SKU of the seller,
 * quantities.
 */
function removalProblems(r: Record<string, string>, skus: Set<string>): Problem[] {
  const problems: Problem[] = [];
  if (!r.MerchantRemovalOrderID) problems.push(problem('90001', 'MerchantRemovalOrderID is required.'));
  if (r.RemovalDisposition !== 'Return' && r.RemovalDisposition !== 'Disposal')
    problems.push(problem('90006', `RemovalDisposition ${r.RemovalDisposition ?? ''} is not Return or Disposal.`));
  if (r.RemovalDisposition === 'Return')
    for (const c of RETURN_ADDRESS.filter((c) => !r[c]))
      problems.push(problem('90001', `${c} is required for a Return.`));
  if (!skus.has(r.MerchantSKU ?? ''))
    problems.push(problem('13013', `The SKU ${r.MerchantSKU ?? ''} was not found in your FBA inventory.`));
  const quantities = [r.SellableQuantity, r.UnsellableQuantity].map((q) => (q ? Number(q) : 0));
  if (quantities.some((q) => !Number.isInteger(q) || q < 0) || quantities[0]! + quantities[1]! <= 0)
    problems.push(
      problem('90005', 'SellableQuantity and UnsellableQuantity must be whole numbers, at least one above 0.'),
    );
  return problems;
}

/** The flat-file processing report: the summary, then a line per problem (original-record-number counts from 1). */
function processingReport(
  rows: Record<string, string>[],
  problemsOf: (r: Record<string, string>) => Problem[],
  keyColumn: string,
): string {
  const lines = rows.flatMap((r, i) =>
    problemsOf(r).map((p) => [String(i + 1), r[keyColumn] ?? '', p.code, p.type, p.message].join('\t')),
  );
  const failed = new Set(lines.filter((l) => l.split('\t')[3] === 'Error').map((l) => l.split('\t')[0]));
  return [
    'Feed Processing Summary:',
    `\tNumber of records processed:\t${rows.length}`,
    `\tNumber of records successful:\t${rows.length - failed.size}`,
    '',
    ['original-record-number', 'sku', 'error-code', 'error-type', 'error-message'].join('\t'),
    ...lines,
    '',
  ].join('\n');
}

/** The feed types the fake processes, with each record's check. */
function processorOf(feedType: string, ctx: SpContext): ((text: string) => string) | undefined {
  if (feedType === 'POST_FLAT_FILE_ORDER_ACKNOWLEDGEMENT_DATA')
    return (text) => processingReport(records(text), acknowledgementProblems, 'order-id');
  if (feedType !== 'POST_FLAT_FILE_FBA_CREATE_REMOVAL') return undefined;
  const skus = new Set(
    PRODUCTS.filter((p) => (ctx.seller.countryCode === 'US' ? p.us : p.de) !== undefined && p.only !== 'Merchant').map(
      (p) => p.sku,
    ),
  );
  return (text) => processingReport(records(text), (r) => removalProblems(r, skus), 'MerchantSKU');
}

/**
 * The Feeds API 2021-06-30 operations (models/feeds-api-model/feeds_2021-06-30.json): createFeedDocument (a
 * pre-signed upload link to the fake's S3), createFeed, getFeed and getFeedDocument. A feed is processed ~2 minutes
 * after it was created: its uploaded file checked record by record into a flat-file processing report (DONE), or
 * FATAL when nothing was uploaded. Feeds and documents are kept per seller.
 */
export function feedRoutes(store: DocumentStore): SpRoute[] {
  const feeds = new Map<string, Map<string, Feed>>();
  const documents = new Map<string, Set<string>>();
  const feedsOf = (ctx: SpContext) =>
    feeds.get(ctx.seller.sellerId) ?? feeds.set(ctx.seller.sellerId, new Map()).get(ctx.seller.sellerId)!;
  const documentsOf = (ctx: SpContext) =>
    documents.get(ctx.seller.sellerId) ?? documents.set(ctx.seller.sellerId, new Set()).get(ctx.seller.sellerId)!;
  const body = (ctx: SpContext) =>
    (ctx.body && typeof ctx.body === 'object' ? ctx.body : {}) as Record<string, unknown>;

  function createFeedDocument(ctx: SpContext) {
    const { contentType } = body(ctx);
    if (typeof contentType !== 'string' || !contentType) throw invalidInput('contentType is required.');
    const feedDocumentId = documentId();
    documentsOf(ctx).add(feedDocumentId);
    ctx.detail.feedDocumentId = feedDocumentId;
    return { status: 201, body: { feedDocumentId, url: store.link(ctx.base, feedDocumentId, 300) } };
  }

  function createFeed(ctx: SpContext) {
    const { feedType, marketplaceIds, inputFeedDocumentId } = body(ctx);
    if (typeof feedType !== 'string' || !feedType) throw invalidInput('feedType is required.');
    if (!Array.isArray(marketplaceIds) || marketplaceIds.length < 1 || marketplaceIds.length > 25)
      throw invalidInput('marketplaceIds must list 1 to 25 marketplaces.');
    if (typeof inputFeedDocumentId !== 'string' || !inputFeedDocumentId)
      throw invalidInput('inputFeedDocumentId is required.');
    if (!processorOf(feedType, ctx)) throw invalidInput(`Invalid feedType ${feedType}.`);
    if (marketplaceIds.some((m) => m !== ctx.seller.marketplaceId))
      throw invalidInput(`Invalid marketplaceIds: the seller does not sell in ${marketplaceIds.join(', ')}.`);
    if (!documentsOf(ctx).has(inputFeedDocumentId))
      throw invalidInput(`Invalid inputFeedDocumentId ${inputFeedDocumentId}.`);
    const feedId = String(50_000_000_000 + Math.floor(Math.random() * 9_999_999_999));
    feedsOf(ctx).set(feedId, {
      feedId,
      feedType,
      marketplaceIds: marketplaceIds as string[],
      createdTime: ctx.at,
      inputFeedDocumentId,
      status: 'IN_QUEUE',
      endTime: null,
      resultFeedDocumentId: null,
    });
    Object.assign(ctx.detail, { feedType, feedId });
    return { status: 202, body: { feedId } };
  }

  /** The feed as of now: queued, in progress, or processed (once) into its processing report. */
  function advance(ctx: SpContext, feed: Feed): Feed {
    if (feed.status === 'DONE' || feed.status === 'FATAL' || feed.status === 'CANCELLED') return feed;
    const age = ctx.at - feed.createdTime;
    if (age < PROCESSED_MS) {
      feed.status = age < QUEUED_MS ? 'IN_QUEUE' : 'IN_PROGRESS';
      return feed;
    }
    const input = store.read(feed.inputFeedDocumentId);
    feed.endTime = feed.createdTime + PROCESSED_MS;
    if (!input) {
      feed.status = 'FATAL';
      return feed;
    }
    const report = processorOf(feed.feedType, ctx)!(input.body.toString('utf8'));
    feed.resultFeedDocumentId = documentId();
    store.put(feed.resultFeedDocumentId, {
      body: Buffer.from(report),
      contentType: 'text/tab-separated-values;charset=UTF-8',
    });
    feed.status = 'DONE';
    return feed;
  }

  function getFeed(ctx: SpContext) {
    const feed = feedsOf(ctx).get(ctx.params[0]!);
    if (!feed) throw new SpError(404, 'NotFound', `Feed ${ctx.params[0]} not found.`);
    const f = advance(ctx, feed);
    ctx.detail.processingStatus = f.status;
    return {
      status: 200,
      body: {
        feedId: f.feedId,
        feedType: f.feedType,
        marketplaceIds: f.marketplaceIds,
        createdTime: iso(f.createdTime),
        processingStatus: f.status,
        ...(f.status !== 'IN_QUEUE' ? { processingStartTime: iso(f.createdTime + QUEUED_MS) } : {}),
        ...(f.endTime !== null ? { processingEndTime: iso(f.endTime) } : {}),
        ...(f.resultFeedDocumentId ? { resultFeedDocumentId: f.resultFeedDocumentId } : {}),
      },
    };
  }

  function getFeedDocument(ctx: SpContext) {
    const id = ctx.params[0]!;
    const mine = documentsOf(ctx).has(id) || [...feedsOf(ctx).values()].some((f) => f.resultFeedDocumentId === id);
    if (!mine || !store.has(id)) throw new SpError(404, 'NotFound', `Feed document ${id} not found.`);
    return {
      status: 200,
      body: { feedDocumentId: id, url: store.link(ctx.base, id, 300), compressionAlgorithm: 'GZIP' },
    };
  }

  const base = '/feeds/2021-06-30';
  return [
    {
      method: 'POST',
      pattern: new RegExp(`^${base}/documents$`),
      operation: 'createFeedDocument',
      handler: createFeedDocument,
    },
    {
      method: 'GET',
      pattern: new RegExp(`^${base}/documents/([^/]+)$`),
      operation: 'getFeedDocument',
      handler: getFeedDocument,
    },
    { method: 'POST', pattern: new RegExp(`^${base}/feeds$`), operation: 'createFeed', handler: createFeed },
    { method: 'GET', pattern: new RegExp(`^${base}/feeds/([^/]+)$`), operation: 'getFeed', handler: getFeed },
  ];
}
