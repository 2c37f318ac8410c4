import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { catalogSources } from '../../catalog/catalog.ts';
import { MktdataError } from '../../errors.ts';
import type { ExportRequest } from '../../exports/export-request.ts';
import { newestDownloadableExportOf, newestExportOf } from '../../exports/export-jobs.ts';
import {
  createSchedule,
  deleteSchedule,
  listSchedules,
  requireSchedule,
  updateSchedule,
  type RelativePeriod,
  type ScheduleRow,
} from '../../exports/export-schedules.ts';
import type { AppDeps, ExportServices } from '../app-deps.ts';
import { ApiNotFoundResponse, noContent, keyProtectedErrors } from '../schemas/common.ts';
import {
  ExportScheduleRequest,
  ExportScheduleWithIntegrationsResponse,
  ExportSchedulesResponse,
  scheduleParams,
  schedulesListQuery,
} from '../schemas/exports.ts';
import { downloadUrl } from './export-replies.ts';

const security = [{ serviceApiKey: [] }];
const tags = ['Export schedules'];

/** The Export schedules group of spec document 000: CRUD, the active filter, and the latest result. */
export async function exportScheduleRoutes(app: FastifyInstance, deps: AppDeps, services: ExportServices) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { wh } = deps;
  const now = () => new Date(services.worker.now());

  const response = async (row: ScheduleRow) => {
    const request = JSON.parse(row.request) as ExportRequest;
    const source = catalogSources().find((s) => s.id === request.sourceId)!;
    const last = await newestExportOf(wh.db, row.id);
    return {
      ...request,
      id: row.id,
      scheduleId: row.id,
      organizationId: row.organization_id,
      name: row.name,
      cron: row.cron,
      timezone: row.timezone,
      active: row.active,
      relativePeriod: row.relative_period ? (JSON.parse(row.relative_period) as RelativePeriod) : null,
      sourceId: source.id,
      sourceName: source.name,
      tableName: source.tableName,
      integrations: (JSON.parse(row.integrations) as { id: string; url: string }[]).map((i) => ({
        id: i.id,
        type: 'WEBHOOK' as const,
        url: i.url,
      })),
      nextRunAt: services.schedules.nextRun(row.id)?.toISOString() ?? null,
      lastExportId: last ?? null,
      createdAt: new Date(row.created_at).toISOString(),
      updatedAt: new Date(row.updated_at).toISOString(),
    };
  };
  const one = { 200: ExportScheduleWithIntegrationsResponse, 404: ApiNotFoundResponse, ...keyProtectedErrors };

  api.get(
    '/exports/schedules',
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        querystring: schedulesListQuery,
        response: { 200: ExportSchedulesResponse, ...keyProtectedErrors },
      },
    },
    async (request) => {
      const { active, page, pageSize } = request.query;
      // Only API-created schedules are listed (spec document 000, "Export schedule").
      const { rows, total } = await listSchedules(wh.db, request.organizationId, { active, page, pageSize });
      return { items: await Promise.all(rows.map(response)), page, pageSize, totalCount: total };
    },
  );

  api.post(
    '/exports/schedules',
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        body: ExportScheduleRequest,
        response: { 201: ExportScheduleWithIntegrationsResponse, 404: ApiNotFoundResponse, ...keyProtectedErrors },
      },
    },
    async (request, reply) => {
      const row = await createSchedule(wh, request.organizationId, request.body, now(), services.schedules.networks);
      services.schedules.arm(row);
      return reply.status(201).send(await response(row));
    },
  );

  api.get(
    '/exports/schedules/:scheduleId',
    { config: { auth: true }, schema: { tags, security, params: scheduleParams, response: one } },
    async (request) => response(await requireSchedule(wh, request.organizationId, request.params.scheduleId)),
  );

  api.put(
    '/exports/schedules/:scheduleId',
    {
      config: { auth: true },
      schema: { tags, security, params: scheduleParams, body: ExportScheduleRequest, response: one },
    },
    async (request) => {
      const row = await updateSchedule(
        wh,
        request.organizationId,
        request.params.scheduleId,
        request.body,
        now(),
        services.schedules.networks,
      );
      services.schedules.arm(row);
      return response(row);
    },
  );

  api.delete(
    '/exports/schedules/:scheduleId',
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        params: scheduleParams,
        response: { 204: noContent, 404: ApiNotFoundResponse, ...keyProtectedErrors },
      },
    },
    async (request, reply) => {
      const row = await requireSchedule(wh, request.organizationId, request.params.scheduleId);
      await deleteSchedule(wh.db, row.id);
      services.schedules.arm(null, row.id);
      return reply.status(204).send(null);
    },
  );

  api.get(
    '/exports/schedules/:scheduleId/latest',
    {
      config: { auth: true },
      schema: { tags, security, params: scheduleParams, response: { 404: ApiNotFoundResponse, ...keyProtectedErrors } },
    },
    async (request, reply) => {
      const row = await requireSchedule(wh, request.organizationId, request.params.scheduleId);
      // The newest export of the schedule whose file can still be downloaded.
      const latest = await newestDownloadableExportOf(wh.db, row.id, now());
      if (!latest) throw new MktdataError('ERR_EXPORT_NOT_FOUND', { id: `latest of schedule ${row.id}` });
      return reply.redirect(downloadUrl(request, services, latest), 302);
    },
  );
}
