import type { Warehouse } from '../../db/warehouse.ts';
import { MktdataError } from '../../errors.ts';
import type { DateRange } from '../../models/date-ranges.ts';
import { findPipeline, loadPipelines, type Pipeline } from '../../pipelines/pipeline-config.ts';
import { planRun, publishDeferred, runPipeline, type RunSummary } from '../../pipelines/run-pipeline.ts';
import { waitingFiles } from '../../ingest/landing.ts';
import { refusalText } from '../../ingest/land-file.ts';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { printRows, progress } from '../output.ts';
import { served } from '../served.ts';
import { liveFetcher } from '../../pipelines/fetch/live.ts';
import type { FetchEvent } from '../../pipelines/fetch/execute-fetches.ts';
import { fetchesOfRun, type FetchRequest } from '../../pipelines/fetch/fetch-requests.ts';
import { connectionIds } from '../../control/connections/connections.ts';
import { latestRuns } from '../../pipelines/pipeline-runs.ts';
import { windowsOfRun } from '../../pipelines/run-windows.ts';

export type Format = 'table' | 'json';

function selected(name?: string): Pipeline[] {
  const pipelines = loadPipelines();
  return name ? [findPipeline(pipelines, name)] : pipelines;
}

/** `mktdata plan`: the windows the next run would rebuild, and the files waiting in landing/. */
export async function plan(
  wh: Warehouse,
  options: { pipeline?: string; backfill?: DateRange; format: Format },
): Promise<void> {
  const rows: unknown[][] = [];
  for (const pipeline of selected(options.pipeline)) {
    const { windows } = await planRun(wh, pipeline, { backfill: options.backfill });
    for (const w of windows)
      rows.push([pipeline.name, w.connectionId, w.table, w.kind, w.stage, w.from ?? 'whole table', w.to ?? '']);
  }
  printRows(options.format, ['pipeline', 'connection', 'table', 'kind', 'stage', 'from', 'to'], rows);
  if (options.format === 'table') {
    const connections = new Set(await connectionIds(wh.db));
    for (const { line } of waitingLines(wh, connections)) console.log(line);
  }
}

/** One line per landing folder with files: how many wait, or why they will not be landed (`problem`). */
function waitingLines(wh: Warehouse, connections: Set<string>): { line: string; problem: boolean }[] {
  if (!existsSync(wh.home.landing)) return [];
  const sources = [...new Set(loadPipelines().flatMap((p) => Object.keys(p.sources)))].sort();
  const lines: { line: string; problem: boolean }[] = [];
  for (const connection of readdirSync(wh.home.landing).sort()) {
    const folder = join(wh.home.landing, connection);
    if (!statSync(folder).isDirectory()) continue;
    for (const source of readdirSync(folder).sort()) {
      if (!statSync(join(folder, source)).isDirectory()) continue;
      const count = waitingFiles(join(folder, source)).length;
      if (count === 0) continue;
      const problem = !connections.has(connection)
        ? 'no such connection (`mktdata connections list` shows their ids)'
        : !sources.includes(source)
          ? `no source is called ${source}; the sources are ${sources.join(', ')}`
          : null;
      lines.push({
        line: `landing/${connection}/${source}: ${count} file(s) ${problem ? `not landed: ${problem}` : 'to land'}`,
        problem: problem !== null,
      });
    }
  }
  return lines;
}

/** One line per fetch request that ended in a run (never a secret: sources, windows, ids, counts, reasons). */
const described = (r: FetchRequest) => `${r.source} ${r.connectionId} ${r.from ? `${r.from}..${r.to}` : 'snapshot'}`;

function printFetch(e: FetchEvent): void {
  const what = described(e.request);
  if (e.status === 'landed') console.log(`fetched  ${what}: ${e.rows} rows`);
  else if (e.status === 'empty') console.log(`fetched  ${what}: no data (${e.error})`);
  else if (e.status === 'pending') console.log(`waiting  ${what}: still processing upstream; the next run resumes it`);
  else
    console.error(
      `${e.status === 'failed' ? 'failed ' : 'gave up'}  ${what}: ${e.error}${e.status === 'failed' ? ' (retried by a later run)' : ''}`,
    );
}

/** `mktdata run`: each selected pipeline once; the run ids are printed last. Throws when a window failed. */
export async function run(wh: Warehouse, options: { pipeline?: string; backfill?: DateRange }): Promise<void> {
  const onDownloaded = (r: FetchRequest) =>
    console.log(`downloaded ${described(r)}: lands with this fetch's other documents`);
  // (Beside a running server, its connectors: their rate limits are the ones its own runs keep; and its metrics.)
  const metrics = served()?.metrics;
  const fetcher = await liveFetcher(wh, {
    connectors: served()?.connectors,
    onFetched: (e) => {
      metrics?.fetched(e);
      printFetch(e);
    },
    onDownloaded,
    onDocumentLanded: metrics && ((r) => metrics.landed(r)),
    onWarning: (m) => console.error(`warning: ${m}`),
  });
  const summaries: RunSummary[] = [];
  let failed = 0;
  let refused = 0;
  for (const pipeline of selected(options.pipeline)) {
    let bar = progress(`run ${pipeline.name}`, 0);
    const started = performance.now();
    const summary = await runPipeline(wh, pipeline, {
      backfill: options.backfill,
      fetcher,
      // One publish after every pipeline: the snapshot is the one before this command or the one after it.
      deferPublish: true,
      onLanded: (r) => {
        metrics?.landed(r);
        if (r.status === 'landed') console.log(`landed   ${r.source} ${r.file}: ${r.rows} rows (file ${r.fileId})`);
        if (r.status === 'refused')
          console.error(`refused  ${r.source} ${r.file}: ${refusalText(r)} (kept in ${r.keptAt})`);
      },
      onModel: (model, index, total) => {
        if (index === 0) bar = progress(`run ${pipeline.name}`, total);
        bar.tick(model.id);
      },
    }).catch((error: unknown) => {
      metrics?.pipelineRun(pipeline.name, (performance.now() - started) / 1000);
      throw error;
    });
    bar.stop();
    metrics?.pipelineRun(pipeline.name, (performance.now() - started) / 1000, summary);
    for (const w of summary.windows) {
      const range = w.from ? `${w.from}..${w.to}` : 'whole table';
      const size = `${w.rows !== null ? ` ${w.rows} rows` : ''}${w.ms != null ? `, ${w.ms} ms` : ''}`;
      console.log(
        `${w.status.padEnd(7)} ${pipeline.name} ${w.table} ${w.connectionId} ${w.kind}${w.stage ? `/${w.stage}` : ''} ${range}${size}${w.error ? `: ${w.error}` : ''}`,
      );
    }
    if (summary.windows.length === 0) console.log(`${pipeline.name}: nothing new landed and nothing planned`);
    if (summary.status !== 'success') failed++;
    refused += summary.refused;
    summaries.push(summary);
  }
  await publishDeferred(wh, summaries);
  const connections = new Set(await connectionIds(wh.db));
  const stray = waitingLines(wh, connections).filter((l) => l.problem);
  for (const { line } of stray) console.error(line);
  for (const s of summaries.filter((s) => s.status !== 'success'))
    console.error(`${s.pipeline}: run ${s.status}, ${s.errors} error(s)`);
  for (const summary of summaries) console.log(summary.runId);
  if (failed > 0) throw new MktdataError('ERR_RUN_FAILED', { count: failed });
  if (refused + stray.length > 0) throw new MktdataError('ERR_INGEST_FAILED', { count: refused + stray.length });
}

/** `mktdata runs`: the windows of recent runs, newest first. */
export async function runs(
  wh: Warehouse,
  options: { pipeline?: string; limit: number; format: Format },
): Promise<void> {
  const recent = await latestRuns(wh.db, options);
  const rows: unknown[][] = [];
  for (const r of recent) {
    const windows = await windowsOfRun(wh.db, r.id);
    const base = [r.id, r.pipeline, String(r.started_at), r.status, r.errors === null ? null : Number(r.errors)];
    for (const w of windows) {
      rows.push([
        ...base,
        w.connection_id,
        w.table_name,
        w.kind,
        w.stage,
        w.date_from === null ? null : String(w.date_from),
        w.date_to === null ? null : String(w.date_to),
        w.status,
        w.row_count === null ? null : Number(w.row_count),
        w.ms === null ? null : Number(w.ms),
        w.error,
      ]);
    }
    // What the live connectors fetched for the run: one row per upstream request, the source in the table column.
    const fetches = await fetchesOfRun(wh.db, r.id);
    if (windows.length === 0 && fetches.length === 0)
      rows.push([...base, null, null, null, null, null, null, null, null, null, r.error]);
    for (const f of fetches) {
      const ms =
        f.requested_at && f.finished_at ? Date.parse(String(f.finished_at)) - Date.parse(String(f.requested_at)) : null;
      rows.push([
        ...base,
        f.connection_id,
        f.source,
        'FETCH',
        f.stage,
        f.date_from === null ? null : String(f.date_from),
        f.date_to === null ? null : String(f.date_to),
        f.status,
        f.rows === null ? null : Number(f.rows),
        ms,
        f.error,
      ]);
    }
  }
  const columns = [
    'run',
    'pipeline',
    'started_at',
    'run_status',
    'run_errors',
    'connection',
    'table',
    'kind',
    'stage',
    'from',
    'to',
    'status',
    'rows',
    'ms',
    'error',
  ];
  printRows(options.format, columns, rows);
}
