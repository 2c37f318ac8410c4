import { chartFigure } from '../charts.ts';
import { badge, count, dataTable, duration, html, statusTone, text, when } from '../layout.ts';
import { nonEmpty, scopeConnections, type PageContext } from '../page-context.ts';
import { latestRunsFor, runById } from '../../pipelines/pipeline-runs.ts';
import { windowsOfRunFor } from '../../pipelines/run-windows.ts';

const runLimit = 100;

/** The runs a scope sees, newest first: every run for the operator, else the runs that built one of its connections. */
function scopedRuns(ctx: PageContext, ids: string[]) {
  return latestRunsFor(ctx.wh.db, ids, { onlyTheirs: !ctx.scope.operator, limit: runLimit });
}

/** A run's status for an organization is its own windows' outcome (the run's error may name other organizations). */
const scopeStatus = (
  ctx: PageContext,
  r: { status: string; errors?: number | string | null; windows?: number | string },
) => {
  if (ctx.scope.operator || r.status === 'running') return r.status;
  const errors = Number(r.errors ?? 0);
  return errors === 0 ? 'success' : errors < Number(r.windows ?? 0) ? 'partial' : 'failed';
};

const ms = (from: string, to: string | null) => (to ? new Date(to).getTime() - new Date(from).getTime() : null);

/** The "Run now" form: a pipeline, or every one, queued at once (only where this server runs the pipelines). */
function runNowForm(ctx: PageContext, queued: string | undefined): string {
  const said =
    queued === undefined
      ? ''
      : `<p role="status">${queued ? `Queued: ${html(queued)}. Its run appears here when it starts.` : 'Nothing queued.'}</p>`;
  if (!ctx.pipelines) return said;
  const options = ctx.pipelines.map((p) => `<option value="${html(p)}">${html(p)}</option>`).join('');
  return `${said}<form method="post" action="/runs/now"><label for="run-pipeline">Pipeline</label> <select id="run-pipeline" name="pipeline"><option value="">every pipeline</option>${options}</select> <button type="submit">Run now</button></form>`;
}

/** `/runs`: the pipeline runs, a timeline of the last 7 days and their durations over time. */
export async function runsPage(ctx: PageContext, queued?: string): Promise<string> {
  const ids = nonEmpty((await scopeConnections(ctx)).map((c) => c.id));
  const runs = await scopedRuns(ctx, ids);
  const status = (r: (typeof runs)[number]) => scopeStatus(ctx, r);
  const table = dataTable(
    `The latest ${runLimit} runs`,
    [
      { header: 'Run', cell: (r) => `<a href="/runs/${encodeURIComponent(r.id)}">${html(r.id.slice(0, 8))}</a>` },
      { header: 'Pipeline', cell: (r) => text(r.pipeline) },
      { header: 'Trigger', cell: (r) => text(r.trigger) },
      { header: 'Started', cell: (r) => when(r.started_at) },
      { header: 'Time', cell: (r) => duration(ms(r.started_at, r.finished_at)), num: true },
      { header: 'Status', cell: (r) => badge(status(r), statusTone(status(r))) },
      { header: 'Windows', cell: (r) => count(r.windows), num: true },
      // The operator sees the run's own count (windows, fetch requests, files); an organization its windows' errors.
      { header: 'Errors', cell: (r) => count(ctx.scope.operator ? (r.run_errors ?? 0) : r.errors), num: true },
      ...(ctx.scope.operator
        ? [
            { header: 'Files landed', cell: (r: (typeof runs)[number]) => count(r.landed_files), num: true },
            {
              header: 'Error',
              cell: (r: (typeof runs)[number]) => (r.error ? `<span class="error">${html(r.error)}</span>` : '—'),
            },
          ]
        : []),
    ],
    runs,
    'No runs yet: `mktdata run` or the scheduler in `mktdata serve` starts them.',
  );
  const finished = [...runs].filter((r) => r.finished_at).reverse();
  const chart =
    finished.length === 0
      ? ''
      : chartFigure('run-durations', {
          title: 'Run durations',
          unit: 'seconds',
          x: finished.map((r) => new Date(r.started_at).toISOString()),
          series: [...new Set(finished.map((r) => r.pipeline))].map((p) => ({
            label: p,
            values: finished.map((r) => (r.pipeline === p ? ms(r.started_at, r.finished_at)! / 1000 : null)),
          })),
        });
  return `${runNowForm(ctx, queued)}<h2>Last 7 days</h2>${timeline(runs, ctx.now, status)}${chart}<h2>Runs</h2>${table}`;
}

/** The runs of the 7 days before `now` as bars on one line, placed by start and end; failed runs in red. */
function timeline<R extends { id: string; pipeline: string; started_at: string; finished_at: string | null }>(
  runs: R[],
  now: Date,
  status: (r: R) => string,
): string {
  const end = now.getTime();
  const start = end - 7 * 86_400_000;
  const bars = runs
    .filter((r) => new Date(r.finished_at ?? now).getTime() >= start)
    .map((r) => {
      const from = Math.max(start, new Date(r.started_at).getTime());
      const to = Math.min(end, new Date(r.finished_at ?? now).getTime());
      const left = ((from - start) / (end - start)) * 100;
      const width = Math.max(0.3, ((to - from) / (end - start)) * 100);
      const label = `${r.pipeline} ${new Date(r.started_at).toISOString().slice(0, 16)} ${status(r)}`;
      return `<span class="${status(r) === 'failed' ? 'bad' : ''}" style="left:${left.toFixed(2)}%;width:${width.toFixed(2)}%" title="${html(label)}"></span>`;
    });
  return `<div class="tl" role="img" aria-label="${bars.length} run(s) in the last 7 days">${bars.join('')}</div><p class="muted">${when(new Date(start))} to ${when(now)} (UTC)</p>`;
}

/** `/runs/:id`: one run's windows (kind, dates, status, rows, time, error); null when the scope cannot see the run. */
export async function runPage(ctx: PageContext, runId: string): Promise<string | null> {
  const connections = await scopeConnections(ctx);
  const names = new Map(connections.map((c) => [c.id, c.name]));
  const run =
    (await scopedRuns(ctx, nonEmpty([...names.keys()]))).find((r) => r.id === runId) ??
    (ctx.scope.operator ? await runById(ctx.wh.db, runId) : undefined);
  if (!run) return null;
  const windows = await windowsOfRunFor(ctx.wh.db, runId, nonEmpty([...names.keys()]));
  const dates = (w: (typeof windows)[number]) =>
    w.date_from ? `${w.date_from.slice(0, 10)} … ${(w.date_to ?? '').slice(0, 10)}` : 'whole table';
  const error = ctx.scope.operator && run.error ? `<p class="error">${html(run.error)}</p>` : '';
  const summary = `${error}<p>${text(run.pipeline)} · ${badge(scopeStatus(ctx, run), statusTone(scopeStatus(ctx, run)))} · started ${when(run.started_at)} · ${duration(ms(run.started_at, run.finished_at))}</p>`;
  return (
    summary +
    dataTable(
      `Windows of run ${runId}`,
      [
        { header: 'Table', cell: (w) => text(w.table_name) },
        { header: 'Connection', cell: (w) => text(names.get(w.connection_id) ?? w.connection_id) },
        {
          header: 'Kind',
          cell: (w) => text(w.kind) + (w.stage ? ` <span class="muted">${html(w.stage.toLowerCase())}</span>` : ''),
        },
        { header: 'Local date', cell: (w) => text(String(w.local_date).slice(0, 10)) },
        { header: 'Dates', cell: (w) => html(dates(w)) },
        {
          header: 'Status',
          cell: (w) => badge(w.status, statusTone(w.status)) + (w.retried ? ' <span class="muted">retried</span>' : ''),
        },
        { header: 'Rows', cell: (w) => count(w.row_count), num: true },
        { header: 'Time', cell: (w) => duration(w.ms), num: true },
        { header: 'Error', cell: (w) => (w.error ? `<span class="error">${html(w.error)}</span>` : '—') },
      ],
      windows,
      'This run built no window of your connections.',
    )
  );
}
