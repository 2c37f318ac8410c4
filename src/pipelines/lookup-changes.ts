import type { Warehouse } from '../db/warehouse.ts';
import { mergeRanges, type DateRange } from '../models/date-ranges.ts';
import type { Model } from '../models/load-models.ts';
import type { RunWork } from '../models/run-models.ts';
import type { Pipeline } from './pipeline-config.ts';
import { localClock, subtractRanges, type PlanConnection, type PlannedWindow } from './plan.ts';

/** The lookups (`shown_in`) a phase rebuilds, each kept as it was before in a temp table. */
export interface KeptLookups {
  models: Model[];
}

const keptName = (model: Model) => `lookup_before_${model.name}`;

/**
 * Keeps a copy of each lookup the phase's work rebuilds (small tables: a row per SKU or child ASIN). One not built
 * yet is not kept: every row showing it is being built for the first time.
 */
export async function keepLookups(wh: Warehouse, models: Model[], work: RunWork): Promise<KeptLookups> {
  const kept: Model[] = [];
  for (const model of models.filter((m) => m.config.shown_in && (work.whole.has(m.id) || work.keyed.has(m.id)))) {
    if (!(await tableExists(wh, model))) continue;
    await wh.sql.run(`create or replace temp table ${keptName(model)} as select * from ${model.id}`);
    kept.push(model);
  }
  return { models: kept };
}

async function tableExists(wh: Warehouse, model: Model): Promise<boolean> {
  const reader = await wh.sql.runAndReadAll(
    `select count(*) from duckdb_tables() where schema_name = $schema and table_name = $name`,
    { schema: model.schema, name: model.name },
  );
  return Number(reader.getRowsJson()[0]![0]) > 0;
}

/**
 * After a phase: the windows of the dates whose rows show a lookup's rows that the phase changed (the `shown_in` SQL
 * of each kept lookup, over its rows that differ from their copy), beyond the phase's own windows; tables computed
 * from the pipeline's others (CONTINUOUS) rebuild them too.
 */
export async function lookupWindows(
  wh: Warehouse,
  kept: KeptLookups,
  pipeline: Pipeline,
  connections: PlanConnection[],
  phase: PlannedWindow[],
  now: Date,
): Promise<PlannedWindow[]> {
  const byTable = new Map<string, Map<string, DateRange[]>>();
  for (const model of kept.models) {
    const before = keptName(model);
    await wh.sql.run(
      `create or replace temp table changed_lookup_rows as (select * from ${before} except select * from ${model.id}) union (select * from ${model.id} except select * from ${before})`,
    );
    await wh.sql.run(`drop table ${before}`);
    for (const [table, query] of Object.entries(model.config.shown_in!)) {
      if (!pipeline.tables.some((t) => t.name === table)) continue;
      const reader = await wh.sql.runAndReadAll(
        `select distinct connection_id, date::varchar from (${query}) where date is not null`,
      );
      for (const [connectionId, date] of reader.getRowsJson() as string[][]) {
        const byConnection = byTable.get(table) ?? new Map<string, DateRange[]>();
        byTable.set(table, byConnection);
        byConnection.set(connectionId!, [...(byConnection.get(connectionId!) ?? []), { from: date!, to: date! }]);
      }
    }
  }
  const computed = pipeline.tables
    .filter((t) => t.dated && t.fetchPeriods.some((p) => p.type === 'CONTINUOUS'))
    .map((t) => t.name);
  const windows: PlannedWindow[] = [];
  const zones = new Map(connections.map((c) => [c.id, c.timezone]));
  const add = (table: string, connectionId: string, ranges: DateRange[]) => {
    const built = phase.filter((w) => w.table === table && w.connectionId === connectionId);
    if (built.some((w) => w.from === null)) return;
    const localDate = localClock(now, zones.get(connectionId) ?? 'UTC').date;
    for (const range of subtractRanges(
      ranges,
      built.map((w) => ({ from: w.from!, to: w.to! })),
    )) {
      windows.push({ connectionId, table, kind: 'LATE_DATA', stage: null, localDate, ...range });
    }
  };
  for (const [table, byConnection] of byTable) {
    for (const [connectionId, ranges] of byConnection) {
      const merged = mergeRanges(ranges);
      for (const name of new Set([table, ...computed])) add(name, connectionId, merged);
    }
  }
  return windows;
}
