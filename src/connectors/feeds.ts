import { gunzipSync } from 'node:zlib';
import { ConnectorError, withoutQuery } from './connector-error.ts';
import { fetchOrThrow } from './retry.ts';
import type { SpApiClient } from './sp-api.ts';

const base = '/feeds/2021-06-30';

/** A feed's processing status (Feeds API 2021-06-30 `Feed.processingStatus`). */
export type FeedStatus = 'IN_QUEUE' | 'IN_PROGRESS' | 'DONE' | 'FATAL' | 'CANCELLED';

/** What submitFeed uploads: the feed type, its marketplaces, and the file with its content type. */
export interface FeedSubmission {
  feedType: string;
  marketplaceIds: string[];
  /** e.g. `text/tab-separated-values; charset=UTF-8` for a flat file. */
  contentType: string;
  content: string | Buffer;
}

/** The failure of a pre-signed document link (upload or download), its signature left out. */
async function linkError(response: Response, operation: string): Promise<ConnectorError> {
  const text = (await response.text()).slice(0, 500);
  const message = /<Message>([^<]*)/.exec(text)?.[1];
  const kind =
    response.status === 403
      ? 'link-expired'
      : response.status >= 500
        ? 'server'
        : response.status === 404
          ? 'not-found'
          : 'invalid-input';
  return new ConnectorError(kind, `HTTP ${response.status}${message ? `: ${message}` : ''}`, {
    status: response.status,
    operation,
  });
}

/**
 * Submits a feed (Feeds API 2021-06-30, models/feeds-api-model/feeds_2021-06-30.json): createFeedDocument, the file
 * PUT to the pre-signed `url` it answers (with the same content type, no API headers), then createFeed. The feedId.
 */
export async function submitFeed(sp: SpApiClient, feed: FeedSubmission): Promise<string> {
  const { body: document } = await sp.request<{ feedDocumentId: string; url: string }>('createFeedDocument', {
    method: 'POST',
    path: `${base}/documents`,
    body: { contentType: feed.contentType },
  });
  const operation = `upload ${withoutQuery(document.url)}`;
  const response = await fetchOrThrow(
    document.url,
    {
      method: 'PUT',
      headers: { 'content-type': feed.contentType },
      body: typeof feed.content === 'string' ? feed.content : new Uint8Array(feed.content),
    },
    operation,
  );
  if (!response.ok) throw await linkError(response, operation);
  await response.arrayBuffer();
  const { body } = await sp.request<{ feedId: string }>('createFeed', {
    method: 'POST',
    path: `${base}/feeds`,
    body: {
      feedType: feed.feedType,
      marketplaceIds: feed.marketplaceIds,
      inputFeedDocumentId: document.feedDocumentId,
    },
  });
  return body.feedId;
}

/**
 * Downloads a feed document (getFeedDocument, then its pre-signed `url`), gunzipped when `compressionAlgorithm` is
 * GZIP.
 */
async function feedDocument(sp: SpApiClient, feedDocumentId: string): Promise<string> {
  const { body } = await sp.request<{ url: string; compressionAlgorithm?: string }>('getFeedDocument', {
    method: 'GET',
    path: `${base}/documents/${encodeURIComponent(feedDocumentId)}`,
  });
  const operation = `download ${withoutQuery(body.url)}`;
  const response = await fetchOrThrow(body.url, {}, operation);
  if (!response.ok) throw await linkError(response, operation);
  const bytes = Buffer.from(await response.arrayBuffer());
  const gzip = body.compressionAlgorithm === 'GZIP' || (bytes[0] === 0x1f && bytes[1] === 0x8b);
  return (gzip ? gunzipSync(bytes) : bytes).toString('utf8');
}

/**
 * A feed's state (getFeed) and, once DONE, its processing report (the resultFeedDocumentId's document, as text;
 * FATAL feeds may have one too). The report is small (one line per refused record), so it is read in memory.
 */
export async function feedResult(
  sp: SpApiClient,
  feedId: string,
): Promise<{ processingStatus: FeedStatus; report?: string }> {
  const { body } = await sp.request<{ processingStatus: FeedStatus; resultFeedDocumentId?: string }>('getFeed', {
    method: 'GET',
    path: `${base}/feeds/${encodeURIComponent(feedId)}`,
  });
  if ((body.processingStatus !== 'DONE' && body.processingStatus !== 'FATAL') || !body.resultFeedDocumentId)
    return { processingStatus: body.processingStatus };
  return { processingStatus: body.processingStatus, report: await feedDocument(sp, body.resultFeedDocumentId) };
}

/** One refused record of a flat-file processing report. */
export interface FeedRecordError {
  record: number;
  code: string;
  type: string;
  message: string;
}

/**
 * Parses a flat-file feed processing report (tab-delimited: `Feed Processing Summary`, `Number of records
 * processed: N`, `Number of records successful: M`, then `original-record-number  sku  error-code  error-type
 * error-message` lines, one per problem; Warning lines do not fail a record).
 */
export function parseProcessingReport(report: string): {
  processed: number;
  successful: number;
  errors: FeedRecordError[];
} {
  const count = (label: string) => Number(new RegExp(`${label}:?\\s*(\\d+)`, 'i').exec(report)?.[1] ?? 0);
  const lines = report.split(/\r?\n/);
  const header = lines.findIndex((l) => l.startsWith('original-record-number'));
  const columns = header >= 0 ? lines[header]!.split('\t') : [];
  const at = (cells: string[], name: string) => cells[columns.indexOf(name)] ?? '';
  const errors =
    header < 0
      ? []
      : lines
          .slice(header + 1)
          .filter((l) => l.trim())
          .map((l) => l.split('\t'))
          .map((cells) => ({
            record: Number(at(cells, 'original-record-number')),
            code: at(cells, 'error-code'),
            type: at(cells, 'error-type'),
            message: at(cells, 'error-message'),
          }));
  return { processed: count('Number of records processed'), successful: count('Number of records successful'), errors };
}
