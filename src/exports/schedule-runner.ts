import { Cron } from 'croner';
import type { ControlStore } from '../db/control-store.ts';
import { createExport, type ExportRow } from './export-jobs.ts';
import {
  activeSchedules,
  scheduleById,
  scheduledRequest,
  scheduleIntegrations,
  type ScheduleRow,
} from './export-schedules.ts';
import type { ExportWorker } from './export-worker.ts';
import type { Networks } from '../webhooks/address.ts';
import { recordScheduleRun } from '../webhooks/outbox.ts';
import { claimSlot, forgetSlotsBefore } from '../control/schedule-firings.ts';

/**
 * Runs the active export schedules with croner, each in its own timezone: a run creates an export (charged and
 * queued like an API one) and, when that export ends, queues its outcome for the schedule's webhook URLs in the
 * webhook outbox (webhooks/outbox.ts: retried, across restarts).
 */
export class ScheduleRunner {
  private readonly jobs = new Map<string, Cron>();

  constructor(
    private readonly wh: ControlStore,
    private readonly worker: ExportWorker,
    /** Where webhooks may go besides public addresses (webhooks/address.ts). */
    readonly networks: Networks,
    private readonly log: (message: string, error?: unknown) => void = console.error,
    /** Called after an outcome was queued: the deliverer sends it at once. */
    private readonly queued: () => void = () => {},
  ) {}

  /** Arms every active schedule. */
  async start(): Promise<void> {
    for (const row of await activeSchedules(this.wh.db)) this.arm(row);
  }

  /** (Re)arms one schedule after a change; an inactive or deleted one is disarmed. */
  arm(row: ScheduleRow | null, id = row?.id): void {
    this.jobs.get(id!)?.stop();
    this.jobs.delete(id!);
    if (!row?.active) return;
    this.jobs.set(
      row.id,
      new Cron(
        row.cron,
        { timezone: row.timezone, protect: true, catch: (e) => this.log(`schedule ${row.id} failed`, e) },
        async (job) => {
          await this.fire(row.id, job.currentRun() ?? new Date(this.worker.now()));
        },
      ),
    );
  }

  /** The next run of an armed schedule. */
  nextRun(id: string): Date | null {
    return this.jobs.get(id)?.nextRun() ?? null;
  }

  /**
   * One run of a schedule: creates its export for the period ending before today in the schedule's timezone. A run
   * for a slot (the time its cron fired for) happens once across the processes sharing the control plane: the
   * first to record the slot runs it, the others return null.
   */
  async fire(scheduleId: string, slot?: Date): Promise<ExportRow | null> {
    const row = await scheduleById(this.wh.db, scheduleId);
    if (!row?.active) return null;
    const at = new Date(this.worker.now());
    if (slot && !(await this.claimSlot(scheduleId, slot, at))) return null;
    try {
      const created = await createExport(
        this.wh,
        row.organization_id,
        scheduledRequest(row, at),
        { kind: 'SCHEDULE', scheduleId },
        at,
      );
      if (created.status === 'PENDING') this.worker.enqueue(created.id);
      else await this.notify(created);
      return created;
    } catch (error) {
      this.log(`schedule ${scheduleId} could not create its export`, error);
      return null;
    }
  }

  /** Records a schedule's slot as fired; false when another process recorded it first. Slots over 30 days old go. */
  private async claimSlot(scheduleId: string, slot: Date, at: Date): Promise<boolean> {
    const claimed = await claimSlot(this.wh.db, scheduleId, slot.toISOString(), at.toISOString());
    await forgetSlotsBefore(this.wh.db, scheduleId, new Date(at.getTime() - 30 * 86_400_000).toISOString());
    return claimed;
  }

  /** Queues a scheduled export's outcome for each webhook URL of its schedule (public addresses only, unsigned). */
  async notify(row: ExportRow): Promise<void> {
    if (!row.schedule_id) return;
    const schedule = await scheduleIntegrations(this.wh.db, row.schedule_id);
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
    const urls = (JSON.parse(schedule.integrations) as { url: string }[]).map((i) => i.url);
    await recordScheduleRun(this.wh, row.organization_id, body, urls, new Date(this.worker.now()));
    this.queued();
  }

  /** Disarms every schedule. */
  stop(): void {
    for (const job of this.jobs.values()) job.stop();
    this.jobs.clear();
  }
}
