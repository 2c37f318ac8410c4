import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ControlStore } from '../db/control-store.ts';
import { MktdataError } from '../errors.ts';
import type { Home } from '../home.ts';
import {
  claimExport,
  expiredExportFiles,
  exportById,
  forgetExportFiles,
  pendingExportIds,
  renewExportLease,
  requeueLapsedExports,
  settleExport,
  type ExportRow,
} from './export-jobs.ts';
import { exportRequestSchema } from './export-request.ts';
import { organizationAccounts, resolveExport } from './export-source.ts';
import { fileExtensions, writeExport } from './write-export.ts';

/** Options of the export workers. */
export interface ExportWorkerOptions {
  /** Exports written at the same time. @default 2 */
  concurrency?: number;
  /** How long a completed file is kept, in ms. @default 24 hours */
  retentionMs?: number;
  /** Clock in ms, for tests. @default Date.now */
  now?: () => number;
  /** Called when an export ends (COMPLETED or ERROR), after its row is final. */
  onFinished?: (row: ExportRow) => void | Promise<void>;
  /** Where a failure that is not the request's fault is reported. @default console.error */
  log?: (message: string, error: unknown) => void;
}

/** How long a claimed export is held without a renewal; its writer renews it three times as often. */
export const EXPORT_LEASE_MS = 60_000;

/**
 * Runs PENDING exports from the control plane, a bounded number at a time. The queue is the exports table
 * itself, so a restart loses nothing. Taking an export is a conditional update (PENDING to IN_PROGRESS), so two
 * processes on one control plane never write the same export; the writer holds a lease on it, renewed while it
 * writes. `start`, and a check every lease period, turn exports whose lease ran out (their writer stopped or died)
 * back to PENDING and run them, never one another process is still writing; a file is renamed into place only when
 * whole, so a re-run never doubles a result.
 */
export class ExportWorker {
  private readonly queue: string[] = [];
  private running = 0;
  private stopped = true;
  private idleWaiters: (() => void)[] = [];
  private reclaimer: NodeJS.Timeout | undefined;
  private readonly concurrency: number;
  readonly retentionMs: number;
  readonly now: () => number;

  constructor(
    private readonly wh: ControlStore,
    private readonly home: Home,
    private readonly options: ExportWorkerOptions = {},
  ) {
    this.concurrency = options.concurrency ?? 2;
    this.retentionMs = options.retentionMs ?? 24 * 3_600_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * Resumes what an earlier process left (exports whose lease ran out, their partial files), then runs every PENDING
   * one.
   */
  async start(): Promise<void> {
    mkdirSync(this.home.exports, { recursive: true });
    this.stopped = false;
    await this.reclaim();
    this.reclaimer = setInterval(
      () =>
        void this.reclaim().catch((error) => (this.options.log ?? console.error)('reclaiming exports failed', error)),
      EXPORT_LEASE_MS,
    );
    this.reclaimer.unref();
  }

  /**
   * Exports IN_PROGRESS whose lease ran out go back to PENDING (their partial files removed); every PENDING one is
   * queued.
   */
  async reclaim(): Promise<void> {
    const now = new Date(this.now()).toISOString();
    const lapsed = await requeueLapsedExports(this.wh.db, now);
    for (const row of lapsed)
      rmSync(join(this.home.exports, `.${row.id}.${fileExtensions[row.output_type]}.partial`), { force: true });
    for (const id of await pendingExportIds(this.wh.db)) if (!this.queue.includes(id)) this.queue.push(id);
    this.pump();
  }

  /** Queues an export that is PENDING in the control plane. */
  enqueue(id: string): void {
    if (this.queue.includes(id)) return;
    this.queue.push(id);
    this.pump();
  }

  /** Resolves when nothing is queued or running. */
  idle(): Promise<void> {
    if (this.running === 0 && (this.queue.length === 0 || this.stopped)) return Promise.resolve();
    return new Promise((done) => this.idleWaiters.push(done));
  }

  /** Stops taking exports and waits for the running ones; queued ones stay PENDING for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.reclaimer);
    await this.idle();
  }

  /** Deletes the files of completed exports past their retention; their `/raw` then answers 410. */
  async sweep(): Promise<number> {
    const expired = await expiredExportFiles(this.wh.db, new Date(this.now()).toISOString());
    for (const row of expired) rmSync(join(this.home.exports, row.file_name!), { force: true });
    await forgetExportFiles(
      this.wh.db,
      expired.map((r) => r.id),
    );
    return expired.length;
  }

  private pump(): void {
    while (!this.stopped && this.running < this.concurrency && this.queue.length > 0) {
      const id = this.queue.shift()!;
      this.running++;
      void this.run(id).finally(() => {
        this.running--;
        this.pump();
        if (this.running === 0 && (this.queue.length === 0 || this.stopped))
          this.idleWaiters.splice(0).forEach((done) => done());
      });
    }
  }

  private async run(id: string): Promise<void> {
    const at = () => new Date(this.now()).toISOString();
    const leaseUntil = () => new Date(this.now() + EXPORT_LEASE_MS).toISOString();
    if (!(await claimExport(this.wh.db, id, at(), leaseUntil()))) return; // deleted, or already taken
    const renewal = setInterval(() => {
      void renewExportLease(this.wh.db, id, leaseUntil()).catch((error) =>
        (this.options.log ?? console.error)(`renewing the lease of export ${id} failed`, error),
      );
    }, EXPORT_LEASE_MS / 3);
    try {
      await this.write(id);
    } finally {
      clearInterval(renewal);
    }
  }

  private async write(id: string): Promise<void> {
    const at = () => new Date(this.now()).toISOString();
    const row = await exportById(this.wh.db, id);
    if (!row) throw new Error(`export ${id} is gone`);
    const fileName = `${id}.${fileExtensions[row.output_type]}`;
    const out = join(this.home.exports, fileName);
    let update: Partial<ExportRow>;
    try {
      const request = exportRequestSchema.parse(JSON.parse(row.request));
      const accounts = await organizationAccounts(this.wh, row.organization_id, request.sellerOrVendorIds);
      const { query } = resolveExport(request, accounts);
      const { rows, bytes } = await writeExport(this.home, query, row.output_type, out);
      const completed = this.now();
      update = {
        status: 'COMPLETED',
        row_count: rows,
        file_size_bytes: bytes,
        file_name: fileName,
        completed_at: new Date(completed).toISOString(),
        expires_at: new Date(completed + this.retentionMs).toISOString(),
      };
    } catch (error) {
      if (!(error instanceof MktdataError)) (this.options.log ?? console.error)(`export ${id} failed`, error);
      const reason =
        error instanceof MktdataError
          ? error.message
          : 'the export could not be written; the server log has the details';
      update = { status: 'ERROR', error: reason, completed_at: at() };
    }
    if (!(await settleExport(this.wh.db, id, update))) {
      rmSync(out, { force: true }); // deleted while it was written
      return;
    }
    await this.options.onFinished?.({ ...row, ...update } as ExportRow);
  }
}
