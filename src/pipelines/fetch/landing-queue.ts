import type { Warehouse } from '../../db/warehouse.ts';
import type { LandResult } from '../../ingest/land-file.ts';
import { landDocuments, type WaitingDocument } from '../../ingest/landing.ts';
import type { LandingConnection } from '../../ingest/source.ts';
import type { FetchRequest } from './fetch-requests.ts';

export interface LandingQueueOptions {
  /** Settles when this phase may land (after the build the fetch runs beside). */
  after?: Promise<void>;
  /** When a request's first document is downloaded and waits to land. */
  onDownloaded?: (request: FetchRequest) => void;
  /** After waiting documents landed together, with the real milliseconds their landing took. */
  onLanded?: (results: LandResult[], ms: number) => void;
  /** Each document's landing result, with its source. */
  onDocumentLanded?: (result: LandResult & { source: string }) => void;
}

/**
 * The documents a fetch phase downloaded, waiting on disk to land together (ingest/landing.ts `landDocuments`): one
 * transaction per source and batch, as when landed by hand, not one per document. Each handler's `land` adds its
 * document and waits for the batch it lands in; the fetch stage says when a batch lands (`flush`).
 */
export class LandingQueue {
  private waiting: { request: string; document: WaitingDocument; settle: (result: LandResult | Error) => void }[] =
    [];
  private listener = () => {};

  constructor(
    private readonly wh: Warehouse,
    private readonly options: LandingQueueOptions,
  ) {}

  /** Adds a request's downloaded document; resolves with its landing result once its batch landed. */
  land(request: FetchRequest, connection: LandingConnection, file: string): Promise<LandResult> {
    return new Promise((resolve, reject) => {
      if (!this.waiting.some((w) => w.request === request.id)) this.options.onDownloaded?.(request);
      this.waiting.push({
        request: request.id,
        document: { connection: { id: connection.id, marketplaceId: connection.marketplaceId }, source: request.source, file },
        settle: (result) => (result instanceof Error ? reject(result) : resolve(result)),
      });
      this.listener();
    });
  }

  /** Documents waiting. */
  get size(): number {
    return this.waiting.length;
  }

  /** Requests waiting on a landing (a request's documents land together, so it waits on all of them). */
  get requestsWaiting(): number {
    return new Set(this.waiting.map((w) => w.request)).size;
  }

  /** Calls `listener` whenever a document starts waiting (the only one: the fetch loop that flushes). */
  onWait(listener: () => void): void {
    this.listener = listener;
  }

  /** Lands every waiting document together; each request's `land` settles with its own result or the batch's error. */
  async flush(): Promise<LandResult[]> {
    const batch = this.waiting.splice(0);
    // Two requests can download one document (the Ads API hands a duplicate request the report it is generating):
    // it lands once, and each of them gets its result.
    const documents = [...new Map(batch.map((w) => [w.document.file, w.document])).values()];
    try {
      await this.options.after;
      const started = performance.now();
      const results = await landDocuments(this.wh, documents, this.options.onDocumentLanded);
      this.options.onLanded?.(results, performance.now() - started);
      const byFile = new Map(documents.map((d, i) => [d.file, results[i]!]));
      batch.forEach((w) => w.settle(byFile.get(w.document.file)!));
      return results;
    } catch (error) {
      batch.forEach((w) => w.settle(error instanceof Error ? error : new Error(String(error))));
      return [];
    }
  }
}
