import { LIST, listValue, VARCHAR } from '@duckdb/node-api';
import type { Warehouse } from '../db/warehouse.ts';
import { findSource } from '../ingest/sources/index.ts';
import type { Model } from '../models/load-models.ts';
import type { DateRange } from '../models/date-ranges.ts';
import type { RunWork } from '../models/run-models.ts';
import type { PlannedWindow } from './plan.ts';

const everyDate: DateRange = { from: '1900-01-01', to: '9999-12-31' };

/** Which upstream (non-catalog) models a phase reruns: all, none, or those reading these raw tables and what they feed. */
export type Upstream = 'all' | 'none' | ReadonlySet<string>;

/** The raw tables a model's SQL names. */
const rawTablesRead = (model: Model) => [...model.sql.matchAll(/\braw\.[a-z0-9_]+/g)].map((m) => m[0]);

/**
 * The models a phase runs: the windows of dated tables, snapshot tables whole, and the models upstream of them that
 * `upstream` says changed: keyed staging models take in the new files, other non-catalog models are rebuilt whole.
 */
export function workOf(models: Model[], phase: PlannedWindow[], files: string[], upstream: Upstream): RunWork {
  const work: RunWork = { windows: new Map(), whole: new Set(), keyed: new Set(), newFiles: files };
  const byId = new Map(models.map((m) => [m.id, m]));
  for (const w of phase) {
    const model = byId.get(`marts.${w.table}`)!;
    if (!model.config.window) {
      work.whole.add(model.id);
      continue;
    }
    const byConnection = work.windows.get(model.id) ?? new Map<string, DateRange[]>();
    work.windows.set(model.id, byConnection);
    byConnection.set(w.connectionId, [...(byConnection.get(w.connectionId) ?? []), w.from === null ? everyDate : { from: w.from, to: w.to! }]);
  }
  // Upstream of what runs: a model changed when it reads a changed raw table or a changed model.
  const changed = new Map<string, boolean>();
  const visit = (id: string): boolean => {
    const known = changed.get(id);
    if (known !== undefined) return known;
    const model = byId.get(id)!;
    const fromDeps = model.deps.map(visit).some(Boolean);
    if (model.schema === 'marts') return false;
    const dirty = upstream === 'all' || (upstream !== 'none' && (fromDeps || rawTablesRead(model).some((t) => upstream.has(t))));
    changed.set(id, dirty);
    if (dirty) (model.config.increment ? work.keyed : work.whole).add(id);
    return dirty;
  };
  [...work.windows.keys(), ...work.whole].forEach(visit);
  return work;
}

/** The raw tables that hold rows of these landed files: those of their sources, for the files with rows. */
export async function rawTablesOf(wh: Warehouse, files: string[]): Promise<Set<string>> {
  if (files.length === 0) return new Set();
  const reader = await wh.sql.runAndReadAll(`select distinct source from control.landed_files where row_count > 0 and id = any($files)`, { files: listValue(files) }, { files: LIST(VARCHAR) });
  return new Set(reader.getRowsJson().map(([source]) => findSource(String(source)).table));
}
