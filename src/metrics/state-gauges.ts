import { existsSync, statSync } from 'node:fs';
import { Gauge, type Registry } from 'prom-client';
import { actionCountsByStatus } from '../actions/action-queue.ts';
import { tokenBalances } from '../control/organizations.ts';
import type { ControlStore } from '../db/control-store.ts';
import { pendingExportCount } from '../exports/export-jobs.ts';
import type { Home } from '../home.ts';
import { freeBytes } from '../lib/disk-space.ts';
import { failedFetchesByConnection } from '../pipelines/fetch/fetch-requests.ts';
import type { Pipeline } from '../pipelines/pipeline-config.ts';
import { publishedWindows } from '../pipelines/run-windows.ts';
import { cachedPerPublish } from '../publish/per-publish.ts';
import { actionStatuses } from '../vocabulary/action-types.ts';

/** What the state gauges read at scrape time. */
export interface StateSources {
  /** The control plane (the home's warehouse, or PostgreSQL scaled out). */
  wh: ControlStore;
  home: Home;
  pipelines: Pipeline[];
  /** Clock in ms, for the data's age. @default Date.now */
  now?: () => number;
  /** Where a gauge that could not be read is reported (it is left empty for that scrape). */
  log?: (message: string, error: unknown) => void;
}

/**
 * The longest time between two refreshes of a table, in seconds: the widest gap between its refresh times (minutes
 * after local midnight), around the clock.
 */
export function refreshIntervalSeconds(refreshAt: number[]): number {
  const times = [...refreshAt].sort((a, b) => a - b);
  if (times.length === 0) return 86_400;
  const gaps = times.map((t, i) => (i === 0 ? t + 1440 - times.at(-1)! : t - times[i - 1]!));
  return Math.max(...gaps) * 60;
}

/**
 * Registers the gauges of the state on `registry`: each is read when Prometheus scrapes, with one cheap query of the
 * control plane (grouped counts, never a scan of a catalog table), a `stat` of the home's two DuckDB files or a
 * `statfs` of its disk. A gauge whose query fails is left empty for that scrape, and the failure logged.
 */
export function registerStateGauges(registry: Registry, s: StateSources): void {
  const now = s.now ?? Date.now;
  // The windows change only when a run publishes: read once per publish (and at most every 5 s), not per scrape, as
  // run_windows grows with every run. The ages are worked out at each scrape from the times read.
  const windows = cachedPerPublish(() => publishedWindows(s.wh.db));
  const gauge = (name: string, help: string, labelNames: string[], read: (g: Gauge) => Promise<void>) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        this.reset();
        await read(this).catch((error: unknown) => {
          this.reset();
          s.log?.(`metrics: ${name} could not be read`, error);
        });
      },
    });
  gauge(
    'mktdata_table_data_age_seconds',
    "Seconds since the latest published run that rebuilt a catalog table's data of a connection.",
    ['table', 'connection'],
    async (g) => {
      for (const w of await windows())
        g.set({ table: w.table_name, connection: w.connection_id }, (now() - Date.parse(w.refreshed_at)) / 1000);
    },
  );
  const interval = new Gauge({
    name: 'mktdata_table_refresh_interval_seconds',
    help: "The longest time between two of a catalog table's refresh times (its pipeline's refreshAt).",
    labelNames: ['table'],
    registers: [registry],
  });
  for (const table of s.pipelines.flatMap((p) => p.tables))
    interval.set({ table: table.name }, refreshIntervalSeconds(table.refreshAt));
  gauge(
    'mktdata_failing_fetches',
    "A connection's fetch requests that failed and wait for a retry, or were given up in the last 7 days.",
    ['connection'],
    async (g) => {
      for (const r of await failedFetchesByConnection(s.wh.db, new Date(now())))
        g.set({ connection: r.connection_id }, r.failed);
    },
  );
  gauge('mktdata_export_queue_depth', 'Exports waiting for a writer (PENDING).', [], async (g) =>
    g.set(await pendingExportCount(s.wh.db)),
  );
  gauge('mktdata_actions', 'Actions of every organization, by status.', ['status'], async (g) => {
    const counts = new Map((await actionCountsByStatus(s.wh.db)).map((r) => [r.status, r.count]));
    for (const status of actionStatuses) g.set({ status }, counts.get(status) ?? 0);
  });
  gauge(
    'mktdata_organization_tokens',
    "An organization's token balance, by organization id.",
    ['organization'],
    async (g) => {
      for (const o of await tokenBalances(s.wh.db)) g.set({ organization: o.id }, o.tokens);
    },
  );
  gauge(
    'mktdata_file_size_bytes',
    "Size of the home's warehouse and published snapshot files.",
    ['file'],
    async (g) => {
      for (const [file, path] of [
        ['warehouse', s.home.warehouse],
        ['snapshot', s.home.published],
      ] as const)
        if (existsSync(path)) g.set({ file }, statSync(path).size);
    },
  );
  gauge('mktdata_disk_free_bytes', "Bytes still free for mktdata on the home's disk.", [], async (g) =>
    g.set(await freeBytes(s.home.root)),
  );
}
