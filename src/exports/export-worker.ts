import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Warehouse } from '../db/warehouse.ts';
import { MktdataError } from '../errors.ts';
import type { Home } from '../home.ts';
import type { ExportRow } from './export-jobs.ts';
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

/**
 * Runs PENDING exports from the control plane, a bounded number at a time. The queue is the exports table
 * itself, so a restart loses nothing: `start` turns exports left IN_PROGRESS back to PENDING and runs every
 * PENDING one; a file is renamed into place only when whole, so a re-run never doubles a result.
 */
export class ExportWorker {
  private readonly queue: string[] = [];
  private running = 0;
  private stopped = true;
  private idleWaiters: (() => void)[] = [];
  private readonly concurrency: number;
  readonly retentionMs: number;
  readonly now: () => number;

  constructor(
    private readonly wh: Warehouse,
    private readonly home: Home,
    private readonly options: ExportWorkerOptions = {},
  ) {
    this.concurrency = options.concurrency ?? 2;
    this.retentionMs = options.retentionMs ?? 24 * 3_600_000;
    this.now = options.now ?? Date.now;
  }

  /** Resumes what an earlier process left: IN_PROGRESS back to PENDING, leftover partial files removed. */
  async start(): Promise<void> {
    mkdirSync(this.home.exports, { recursive: true });
    for (const file of readdirSync(this.home.exports).filter((f) => f.endsWith('.partial'))) rmSync(join(this.home.exports, file), { force: true });
    await this.wh.db.updateTable('control.exports').set({ status: 'PENDING', started_at: null }).where('status', '=', 'IN_PROGRESS').execute();
    const pending = await this.wh.db.selectFrom('control.exports').select('id').where('status', '=', 'PENDING').orderBy('created_at').execute();
    this.queue.splice(0, this.queue.length, ...pending.map((p) => p.id));
    this.stopped = false;
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
    await this.idle();
  }

  /** Deletes the files of completed exports past their retention; their `/raw` then answers 410. */
  async sweep(): Promise<number> {
    const expired = await this.wh.db
      .selectFrom('control.exports')
      .select(['id', 'file_name'])
      .where('status', '=', 'COMPLETED')
      .where('file_name', 'is not', null)
      .where('expires_at', '<=', new Date(this.now()).toISOString())
      .execute();
    for (const row of expired) rmSync(join(this.home.exports, row.file_name!), { force: true });
    if (expired.length) await this.wh.db.updateTable('control.exports').set({ file_name: null }).where('id', 'in', expired.map((r) => r.id)).execute();
    return expired.length;
  }

  private pump(): void {
    while (!this.stopped && this.running < this.concurrency && this.queue.length > 0) {
      const id = this.queue.shift()!;
      this.running++;
      void this.run(id).finally(() => {
        this.running--;
        this.pump();
        if (this.running === 0 && (this.queue.length === 0 || this.stopped)) this.idleWaiters.splice(0).forEach((done) => done());
      });
    }
  }

  private async run(id: string): Promise<void> {
    const at = () => new Date(this.now()).toISOString();
    const claimed = await this.wh.db
      .updateTable('control.exports')
      .set({ status: 'IN_PROGRESS', started_at: at() })
      .where('id', '=', id)
      .where('status', '=', 'PENDING')
      .executeTakeFirst();
    if (claimed.numUpdatedRows === 0n) return; // deleted, or already taken
    const row = await this.wh.db.selectFrom('control.exports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
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
        status: 'COMPLETED', row_count: rows, file_size_bytes: bytes, file_name: fileName,
        completed_at: new Date(completed).toISOString(), expires_at: new Date(completed + this.retentionMs).toISOString(),
      };
    } catch (error) {
      if (!(error instanceof MktdataError)) (this.options.log ?? console.error)(`export ${id} failed`, error);
      const reason = error instanceof MktdataError ? error.message : 'the export could not be written; the server log has the details';
      update = { status: 'ERROR', error: reason, completed_at: at() };
    }
    const saved = await this.wh.db.updateTable('control.exports').set(update).where('id', '=', id).where('status', '=', 'IN_PROGRESS').executeTakeFirst();
    if (saved.numUpdatedRows === 0n) {
      rmSync(out, { force: true }); // deleted while it was written
      return;
    }
    await this.options.onFinished?.({ ...row, ...update } as ExportRow);
  }
}
