import { Cron } from 'croner';
import type { Warehouse } from '../db/warehouse.ts';
import { createExport, type ExportRow } from './export-jobs.ts';
import { scheduledRequest, type ScheduleRow } from './export-schedules.ts';
import type { ExportWorker } from './export-worker.ts';
import { postWebhook, type Networks } from '../webhooks/address.ts';

/**
 * Runs the active export schedules with croner, each in its own timezone: a run creates an export (charged and
 * queued like an API one) and, when that export ends, POSTs its outcome to the schedule's webhook URLs.
 */
export class ScheduleRunner {
  private readonly jobs = new Map<string, Cron>();

  constructor(
    private readonly wh: Warehouse,
    private readonly worker: ExportWorker,
    /** Where webhooks may go besides public addresses (webhooks/address.ts). */
    readonly networks: Networks,
    private readonly log: (message: string, error?: unknown) => void = console.error,
  ) {}

  /** Arms every active schedule. */
  async start(): Promise<void> {
    const rows = await this.wh.db.selectFrom('control.export_schedules').selectAll().where('active', '=', true).execute();
    for (const row of rows) this.arm(row);
  }

  /** (Re)arms one schedule after a change; an inactive or deleted one is disarmed. */
  arm(row: ScheduleRow | null, id = row?.id): void {
    this.jobs.get(id!)?.stop();
    this.jobs.delete(id!);
    if (!row?.active) return;
    this.jobs.set(row.id, new Cron(row.cron, { timezone: row.timezone, protect: true, catch: (e) => this.log(`schedule ${row.id} failed`, e) }, async () => {
      await this.fire(row.id);
    }));
  }

  /** The next run of an armed schedule. */
  nextRun(id: string): Date | null {
    return this.jobs.get(id)?.nextRun() ?? null;
  }

  /** One run of a schedule: creates its export for the period ending before today in the schedule's timezone. */
  async fire(scheduleId: string): Promise<ExportRow | null> {
    const row = await this.wh.db.selectFrom('control.export_schedules').selectAll().where('id', '=', scheduleId).executeTakeFirst();
    if (!row?.active) return null;
    const at = new Date(this.worker.now());
    try {
      const created = await createExport(this.wh, row.organization_id, scheduledRequest(row, at), { kind: 'SCHEDULE', scheduleId }, at);
      if (created.status === 'PENDING') this.worker.enqueue(created.id);
      else await this.notify(created);
      return created;
    } catch (error) {
      this.log(`schedule ${scheduleId} could not create its export`, error);
      return null;
    }
  }

  /** POSTs a scheduled export's outcome to each webhook URL of its schedule (public addresses only); a failing URL is logged, not retried. */
  async notify(row: ExportRow): Promise<void> {
    if (!row.schedule_id) return;
    const schedule = await this.wh.db.selectFrom('control.export_schedules').select(['integrations', 'name']).where('id', '=', row.schedule_id).executeTakeFirst();
    if (!schedule) return;
    const body = JSON.stringify({
      type: 'EXPORT_SCHEDULE_RUN_FINISHED',
      scheduleId: row.schedule_id,
      scheduleName: schedule.name,
      exportId: row.id,
      status: row.status,
      tableName: row.table_name,
      rowCount: row.row_count === null ? null : Number(row.row_count),
      error: row.error,
    });
    for (const { url } of JSON.parse(schedule.integrations) as { url: string }[]) {
      try {
        const status = await postWebhook(url, body, this.networks);
        if (status < 200 || status > 299) this.log(`webhook ${url} answered ${status} for export ${row.id}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`);
      } catch (error) {
        this.log(`webhook ${url} failed for export ${row.id}`, error);
      }
    }
  }

  /** Disarms every schedule. */
  stop(): void {
    for (const job of this.jobs.values()) job.stop();
    this.jobs.clear();
  }
}
