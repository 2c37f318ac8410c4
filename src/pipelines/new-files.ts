import { LIST, listValue, VARCHAR, type DuckDBConnection } from '@duckdb/node-api';
import type { Warehouse } from '../db/warehouse.ts';
import { MktdataError } from '../errors.ts';
import { mergeRanges, type DateRange } from '../models/date-ranges.ts';
import { loadModels, type Model } from '../models/load-models.ts';
import { makeChanged, makeHeld } from '../models/run-keyed.ts';
import { ensureRawTables } from '../ingest/ensure-raw-tables.ts';
import type { Pipeline } from './pipeline-config.ts';
import { addDays, type PlanConnection } from './plan.ts';
import { installMacros } from '../db/macros.ts';
import { filesNotTakenIn, makeNewFiles } from '../control/landed-files.ts';

// Every query on control.pipeline_files, the files each pipeline took in, is in this file
// (test/db/control-table-modules.test.ts), but for the landed files' filesNotTakenIn.

/** A landed file a pipeline has not taken in yet. */
export interface NewFile {
  id: string;
  connection_id: string;
  source: string;
}

/** Files of the pipeline's sources landed since its last run took them in. */
export async function newFiles(wh: Warehouse, pipeline: Pipeline): Promise<NewFile[]> {
  return filesNotTakenIn(wh.db, pipeline.name, Object.keys(pipeline.sources));
}

/** Records that a run of the pipeline took these files in, on the warehouse's connection in the run's transaction. */
export async function recordTakenIn(
  duck: DuckDBConnection,
  pipeline: string,
  fileIds: string[],
  runId: string,
): Promise<void> {
  await duck.run(
    `insert into control.pipeline_files select $pipeline, unnest($ids::varchar[]), $run on conflict do nothing`,
    { pipeline, ids: listValue(fileIds), run: runId },
    { ids: LIST(VARCHAR) },
  );
}

/**
 * Dates that newly landed files touch, per connection and table: each source's `touchedDates` SQL, or every date
 * (null) for a source without it. A row of the SQL applies to the tables that read the source, or, when it names a
 * `table_name`, to that table (one the source's documents move rows of: a settlement posted before its order
 * landed) and to the tables computed from the pipeline's others (CONTINUOUS).
 */
export async function touchedDates(wh: Warehouse, pipeline: Pipeline, files: NewFile[], connections: PlanConnection[]) {
  const touched = new Map<string, Map<string, DateRange[] | null>>();
  if (files.length === 0) return touched;
  // (A source's SQL may read another source's raw table, which nothing may have landed in yet, and use the models'
  // macros.)
  await ensureRawTables(wh.sql);
  await installMacros(wh.sql);
  // (A raw row's _landed_at is its file's landed_at: `_landed_at >= (select min(landed_at) from new_files)` lets a scan
  // skip the row groups landed before.)
  const ids = files.map((f) => f.id);
  await makeNewFiles(wh.sql, ids);
  await wh.sql.run(
    `create or replace temp table connection_zones as select unnest($ids::varchar[]) as connection_id, unnest($zones::varchar[]) as timezone`,
    {
      ids: listValue(connections.map((c) => c.id)),
      zones: listValue(connections.map((c) => c.timezone)),
    },
    { ids: LIST(VARCHAR), zones: LIST(VARCHAR) },
  );
  const computed = pipeline.tables.filter((t) => t.fetchPeriods.some((p) => p.type === 'CONTINUOUS'));
  const add = (connectionId: string, source: string, ranges: DateRange[] | null, tableName: string | null = null) => {
    const tables =
      tableName === null
        ? pipeline.tables.filter((t) => t.sources.includes(source))
        : [...pipeline.tables.filter((t) => t.name === tableName), ...computed];
    for (const table of tables) {
      const byTable = touched.get(connectionId) ?? new Map<string, DateRange[] | null>();
      touched.set(connectionId, byTable);
      const before = byTable.get(table.name);
      // A table whose rows read the days before them: a touched date touches its rows of the days after it too.
      const reach = ranges?.map((r) => ({ from: r.from, to: addDays(r.to, table.readsDaysBefore) })) ?? null;
      byTable.set(table.name, before === null || reach === null ? null : mergeRanges([...(before ?? []), ...reach]));
    }
  };
  for (const source of new Set(files.map((f) => f.source))) {
    const { touchedDates: query, changedKeysOf } = pipeline.sources[source] ?? {};
    // (The model's run takes the keys, and the rows it holds for them, as they are: see makeChanged and makeHeld.)
    if (query && changedKeysOf) {
      const model = findModel(changedKeysOf);
      const changed = await makeChanged(wh.sql, model, ids);
      await wh.sql.run(`create or replace temp view changed as select * from ${changed}`);
      if (model.config.increment!.since)
        await wh.sql.run(`create or replace temp view held as select * from ${await makeHeld(wh.sql, model, changed)}`);
    }
    if (!query) {
      for (const connectionId of new Set(files.filter((f) => f.source === source).map((f) => f.connection_id)))
        add(connectionId, source, null);
      continue;
    }
    const reader = await wh.sql
      .runAndReadAll(
        `select distinct connection_id, ${scoped(query) ? 'table_name' : 'null'}, date_from::varchar, date_to::varchar from (${query}) where date_from is not null`,
      )
      .catch((error: Error) => {
        throw new MktdataError('ERR_INPUT_INVALID', {
          where: `pipelines/${pipeline.name}.yml sources.${source}.touchedDates`,
          reason: error.message.split('\n')[0]!,
        });
      });
    const byTarget = new Map<string, { connectionId: string; table: string | null; ranges: DateRange[] }>();
    for (const [connectionId, table, from, to] of reader.getRowsJson() as (string | null)[][]) {
      const key = JSON.stringify([connectionId, table]);
      if (!byTarget.has(key)) byTarget.set(key, { connectionId: connectionId!, table: table ?? null, ranges: [] });
      byTarget.get(key)!.ranges.push({ from: from!, to: to! });
    }
    for (const { connectionId, table, ranges } of byTarget.values()) add(connectionId, source, ranges, table);
  }
  return touched;
}

const findModel = (id: string): Model => loadModels().find((m) => m.id === id)!;

/** Whether a `touchedDates` query gives a `table_name` column (it names it). */
const scoped = (query: string) => /\btable_name\b/.test(query);
