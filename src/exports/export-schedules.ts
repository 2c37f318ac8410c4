import { randomUUID } from 'node:crypto';
import { Cron } from 'croner';
import type { Kysely } from 'kysely';
import type { ControlPlane, ExportTables } from '../db/control-plane.ts';
import type { ControlStore } from '../db/control-store.ts';
import { MktdataError } from '../errors.ts';
import { addDays, localDate } from '../time/zone.ts';
import { exportRequestSchema, type ExportRequest } from './export-request.ts';
import { checkWebhookUrl, type Networks } from '../webhooks/address.ts';
import { findExportSource, organizationAccounts, resolveExport } from './export-source.ts';

// control.export_schedules, the recurring exports: every query on it is in this file
// (test/db/control-table-modules.test.ts).

type Db = Kysely<ControlPlane>;
export type ScheduleRow = ExportTables['control.export_schedules'];
export type RelativePeriod = { lastDays: number } | { type: 'PREVIOUS_MONTH' };

/** An ExportScheduleRequest as the API accepted it (docs/design/API.md "Schedules"). */
export interface ScheduleInput extends Omit<ExportRequest, 'from' | 'to'> {
  name: string;
  cron: string;
  timezone: string;
  active: boolean;
  relativePeriod?: RelativePeriod;
  integrations: { url: string }[];
}

const invalid = (where: string, reason: string) => new MktdataError('ERR_INPUT_INVALID', { where, reason });

/** The period a run at `at` exports: the `lastDays` days before the run's local date, or the previous month. */
export function periodOf(period: RelativePeriod, timezone: string, at: Date): { from: string; to: string } {
  const today = localDate(at.getTime(), timezone);
  if ('lastDays' in period) return { from: addDays(today, -period.lastDays), to: addDays(today, -1) };
  const firstOfThisMonth = `${today.slice(0, 8)}01`;
  const to = addDays(firstOfThisMonth, -1);
  return { from: `${to.slice(0, 8)}01`, to };
}

/** The ExportRequest one run of a schedule creates. */
export function scheduledRequest(row: ScheduleRow, at: Date): ExportRequest {
  const stored = JSON.parse(row.request) as ExportRequest;
  const period = row.relative_period
    ? periodOf(JSON.parse(row.relative_period) as RelativePeriod, row.timezone, at)
    : {};
  return exportRequestSchema.parse({ ...stored, ...period });
}

/** Checks a schedule before it is stored: cron, timezone, webhook addresses, and the export a run would create now. */
async function check(
  wh: ControlStore,
  organizationId: string,
  input: ScheduleInput,
  at: Date,
  networks: Networks,
): Promise<{ request: ExportRequest; sourceId: string }> {
  try {
    new Intl.DateTimeFormat('en', { timeZone: input.timezone });
  } catch {
    throw invalid('timezone', `unknown timezone ${input.timezone}; use an IANA name such as Europe/Berlin`);
  }
  try {
    new Cron(input.cron, { paused: true, timezone: input.timezone }).stop();
  } catch (error) {
    throw invalid('cron', `not a cron expression: ${(error as Error).message}`);
  }
  for (const [i, { url }] of input.integrations.entries()) await checkWebhookUrl(url, networks, `integrations[${i}]`);
  const { name: _n, cron: _c, timezone: _t, active: _a, relativePeriod, integrations: _i, ...request } = input;
  const source = findExportSource(request);
  if (source.requiresDatePeriod && !relativePeriod)
    throw invalid('relativePeriod', `${source.tableName} requires a date period: give relativePeriod`);
  if (!source.requiresDatePeriod && relativePeriod)
    throw invalid('relativePeriod', `${source.tableName} takes no date period`);
  const normalized = exportRequestSchema.parse({ ...request, sourceId: source.id, tableName: undefined });
  const period = relativePeriod ? periodOf(relativePeriod, input.timezone, at) : {};
  resolveExport(
    { ...normalized, ...period },
    await organizationAccounts(wh, organizationId, request.sellerOrVendorIds),
  );
  return { request: normalized, sourceId: source.id };
}

/** Stores a new schedule (creator API) after checking it. */
export async function createSchedule(
  wh: ControlStore,
  organizationId: string,
  input: ScheduleInput,
  at: Date,
  networks: Networks,
): Promise<ScheduleRow> {
  const { request } = await check(wh, organizationId, input, at, networks);
  const row: ScheduleRow = {
    id: randomUUID(),
    organization_id: organizationId,
    ...fields(input, request),
    creator: 'API',
    created_at: at.toISOString(),
    updated_at: at.toISOString(),
  };
  await wh.db.insertInto('control.export_schedules').values(row).execute();
  return row;
}

/** Replaces a schedule's definition (PUT); its id, creator and creation time stay. */
export async function updateSchedule(
  wh: ControlStore,
  organizationId: string,
  id: string,
  input: ScheduleInput,
  at: Date,
  networks: Networks,
): Promise<ScheduleRow> {
  const existing = await requireSchedule(wh, organizationId, id);
  const { request } = await check(wh, organizationId, input, at, networks);
  const row = { ...existing, ...fields(input, request), updated_at: at.toISOString() };
  await wh.db.updateTable('control.export_schedules').set(row).where('id', '=', id).execute();
  return row;
}

function fields(input: ScheduleInput, request: ExportRequest) {
  const integrations = input.integrations.map(({ url }) => ({ id: randomUUID(), url }));
  return {
    name: input.name,
    request: JSON.stringify(request),
    cron: input.cron,
    timezone: input.timezone,
    active: input.active,
    relative_period: input.relativePeriod ? JSON.stringify(input.relativePeriod) : null,
    integrations: JSON.stringify(integrations),
  };
}

/** The organization's API-created schedule of that id, or ERR_SCHEDULE_NOT_FOUND. */
export async function requireSchedule(wh: ControlStore, organizationId: string, id: string): Promise<ScheduleRow> {
  const row = await wh.db
    .selectFrom('control.export_schedules')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .where('creator', '=', 'API')
    .executeTakeFirst();
  if (!row) throw new MktdataError('ERR_SCHEDULE_NOT_FOUND', { id });
  return row;
}

/** A page of the organization's API-created schedules (only active or inactive ones, when asked), oldest first. */
export async function listSchedules(
  db: Db,
  organizationId: string,
  page: { active?: boolean; page: number; pageSize: number },
): Promise<{ rows: ScheduleRow[]; total: number }> {
  let base = db
    .selectFrom('control.export_schedules')
    .where('organization_id', '=', organizationId)
    .where('creator', '=', 'API');
  if (page.active !== undefined) base = base.where('active', '=', page.active);
  const total = await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('created_at')
    .orderBy('id')
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  return { rows, total: Number(total.n) };
}

/** Deletes a schedule. */
export async function deleteSchedule(db: Db, id: string): Promise<void> {
  await db.deleteFrom('control.export_schedules').where('id', '=', id).execute();
}

/** The schedules, of one organization or of all, by name (the console). */
export function schedulesByName(db: Db, organizationId: string | undefined) {
  let query = db
    .selectFrom('control.export_schedules')
    .select([
      'id',
      'organization_id',
      'name',
      'request',
      'cron',
      'timezone',
      'active',
      'relative_period',
      'updated_at',
    ]);
  if (organizationId) query = query.where('organization_id', '=', organizationId);
  return query.orderBy('name').execute();
}

// The schedule runner's reads.

/** Every active schedule. */
export function activeSchedules(db: Db): Promise<ScheduleRow[]> {
  return db.selectFrom('control.export_schedules').selectAll().where('active', '=', true).execute();
}

/** The schedule of that id, whoever made it, or undefined. */
export function scheduleById(db: Db, id: string): Promise<ScheduleRow | undefined> {
  return db.selectFrom('control.export_schedules').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A schedule's name and webhook integrations, or undefined. */
export function scheduleIntegrations(db: Db, id: string) {
  return db
    .selectFrom('control.export_schedules')
    .select(['integrations', 'name'])
    .where('id', '=', id)
    .executeTakeFirst();
}
