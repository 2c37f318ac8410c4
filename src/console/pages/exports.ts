import { badge, count, dataTable, html, statusTone, text, when } from '../layout.ts';
import type { PageContext } from '../page-context.ts';
import { latestExports } from '../../exports/export-jobs.ts';
import { schedulesByName } from '../../exports/export-schedules.ts';

const exportLimit = 100;

/** `/exports`: the latest exports (status, rows, size, error) and the export schedules. */
export async function exportsPage(ctx: PageContext): Promise<string> {
  const org = ctx.scope.operator ? undefined : ctx.scope.organizationId;
  const exportRows = await latestExports(ctx.wh.db, org, exportLimit);
  const scheduleRows = await schedulesByName(ctx.wh.db, org);
  const tableOf = (request: string) => {
    try {
      return String((JSON.parse(request) as { tableName?: string }).tableName ?? '');
    } catch {
      return '';
    }
  };
  const orgColumn = ctx.scope.operator
    ? [{ header: 'Organization', cell: (r: { organization_id: string }) => html(r.organization_id.slice(0, 8)) }]
    : [];
  return `<h2>Exports</h2>${dataTable(
    `The latest ${exportLimit} exports`,
    [
      ...orgColumn,
      { header: 'Export', cell: (e) => `<code>${html(e.id)}</code>` },
      { header: 'Table', cell: (e) => text(e.table_name) },
      { header: 'Output', cell: (e) => text(e.output_type) },
      { header: 'Status', cell: (e) => badge(e.status, statusTone(e.status)) },
      {
        header: 'By',
        cell: (e) => text(e.creator === 'SCHEDULE' ? `schedule ${String(e.schedule_id).slice(0, 8)}` : e.creator),
      },
      { header: 'Rows', cell: (e) => count(e.row_count), num: true },
      { header: 'Bytes', cell: (e) => count(e.file_size_bytes), num: true },
      { header: 'Created', cell: (e) => when(e.created_at) },
      { header: 'Completed', cell: (e) => when(e.completed_at) },
      { header: 'Expires', cell: (e) => when(e.expires_at) },
      { header: 'Error', cell: (e) => (e.error ? `<span class="error">${html(e.error)}</span>` : '—') },
    ],
    exportRows,
    'No exports yet.',
  )}
<h2>Schedules</h2>${dataTable(
    'Export schedules',
    [
      ...orgColumn,
      { header: 'Schedule', cell: (s) => `${text(s.name)}<br><code class="muted">${html(s.id)}</code>` },
      { header: 'Table', cell: (s) => text(tableOf(s.request)) },
      { header: 'Cron', cell: (s) => `<code>${html(s.cron)}</code>` },
      { header: 'Timezone', cell: (s) => text(s.timezone) },
      { header: 'Period', cell: (s) => text(s.relative_period) },
      { header: 'Active', cell: (s) => badge(s.active ? 'active' : 'paused', s.active ? 'ok' : 'muted') },
      { header: 'Updated', cell: (s) => when(s.updated_at) },
    ],
    scheduleRows,
    'No export schedules.',
  )}`;
}
