import type { Warehouse } from '../db/warehouse.ts';
import { findSource } from '../ingest/sources/index.ts';
import type { Model } from '../models/load-models.ts';
import type { DateRange } from '../models/date-ranges.ts';
import type { RunWork } from '../models/run-models.ts';
import { behind } from '../models/model-inputs.ts';
import type { Pipeline } from './pipeline-config.ts';
import { subtractRanges, type PlannedWindow, type PlanInput, type WindowKind } from './plan.ts';
import { sourcesWithRows } from '../control/landed-files.ts';

const everyDate: DateRange = { from: '1900-01-01', to: '9999-12-31' };

/**
 * Which upstream (non-catalog) models a phase reruns: all, none, or those reading these raw tables and what they feed.
 */
export type Upstream = 'all' | 'none' | ReadonlySet<string>;

/** The raw tables a model's SQL names. */
const rawTablesRead = (model: Model) => [...model.sql.matchAll(/\braw\.[a-z0-9_]+/g)].map((m) => m[0]);

/**
 * Routine re-pulls (not a first load's stages): the dates of their windows that no new row touches mostly come out as
 * they are.
 */
const routineKinds = new Set<WindowKind>(['RECURRING_DAILY', 'REFRESH', 'RECURRING_MONTHLY', 'CONTINUOUS']);
const isRoutine = (w: PlannedWindow) => w.stage === null && routineKinds.has(w.kind);

/** What newly landed rows touch (plan.ts), for narrowing the routine windows of a pipeline's tables. */
export interface Touched {
  pipeline: Pipeline;
  /** undefined: not known (routine windows keep every date) */
  dates: PlanInput['touched'];
}

/**
 * The models a phase runs: the windows of dated tables, snapshot tables whole, and the models upstream of them that
 * `upstream` says changed: keyed staging models take in the new files, a model that follows a table (`window.follows`)
 * gets that table's windows, other non-catalog models are rebuilt whole.
 * With `touched`, a windowed model whose rows come from sources whose touched dates are known (and not from the
 * clock) also gets the narrower dates its routine windows need while its other inputs are unchanged (`changed`).
 */
export function workOf(
  models: Model[],
  phase: PlannedWindow[],
  files: string[],
  upstream: Upstream,
  touched?: Touched,
): RunWork {
  const work: RunWork = { windows: new Map(), whole: new Set(), keyed: new Set(), newFiles: files, changed: new Map() };
  const byId = new Map(models.map((m) => [m.id, m]));
  for (const w of phase) {
    const model = byId.get(`marts.${w.table}`)!;
    if (!model.config.window) {
      work.whole.add(model.id);
      continue;
    }
    const byConnection = work.windows.get(model.id) ?? new Map<string, DateRange[]>();
    work.windows.set(model.id, byConnection);
    byConnection.set(w.connectionId, [
      ...(byConnection.get(w.connectionId) ?? []),
      w.from === null ? everyDate : { from: w.from, to: w.to! },
    ]);
  }
  // A model windowed like a catalog table (`window.follows`) rebuilds that table's windows.
  for (const model of models) {
    const windows = model.config.window?.follows && work.windows.get(`marts.${model.config.window.follows}`);
    if (windows) work.windows.set(model.id, new Map(windows));
  }
  if (touched) {
    for (const id of work.windows.keys()) {
      const dates = changedDates(byId.get(id)!, byId, phase, touched);
      if (dates) work.changed!.set(id, dates);
    }
  }
  // Upstream of what runs: a model changed when it reads a changed raw table or a changed model.
  const changed = new Map<string, boolean>();
  const visit = (id: string): boolean => {
    const known = changed.get(id);
    if (known !== undefined) return known;
    const model = byId.get(id)!;
    const fromDeps = model.deps.map(visit).some(Boolean);
    if (model.schema === 'marts') return false;
    // One that follows a table runs with that table's windows or not at all: its rows are as recent as the table's.
    if (model.config.window?.follows) {
      changed.set(id, work.windows.has(id));
      return work.windows.has(id);
    }
    const dirty =
      upstream === 'all' || (upstream !== 'none' && (fromDeps || rawTablesRead(model).some((t) => upstream.has(t))));
    changed.set(id, dirty);
    if (dirty) (model.config.increment ? work.keyed : work.whole).add(id);
    return dirty;
  };
  [...work.windows.keys(), ...work.whole].forEach(visit);
  return work;
}

/**
 * Per connection, the dates of a windowed model's phase windows (those of the table it follows, for one that does)
 * that its newly landed rows touch, routine windows cut to those; undefined when some raw table behind the model has
 * no touched dates in the pipeline, it reads a windowed model of another pipeline, or its SQL reads the clock.
 */
function changedDates(
  model: Model,
  byId: Map<string, Model>,
  phase: PlannedWindow[],
  touched: Touched,
): Map<string, DateRange[]> | undefined {
  const table = touched.pipeline.tables.find((t) => t.model === model.id || t.name === model.config.window?.follows);
  if (!table) return undefined;
  const tracked = new Set(
    table.sources.filter((s) => touched.pipeline.sources[s]?.touchedDates).map((s) => findSource(s).table),
  );
  const found = behind(model, byId);
  // (A windowed model of another pipeline changes in that pipeline's runs, which do not tell this one its dates.)
  const ours = new Set(touched.pipeline.tables.map((t) => t.model));
  if (found.clock || [...found.raw].some((t) => !tracked.has(t)) || [...found.windowed].some((id) => !ours.has(id)))
    return undefined;
  const changed = new Map<string, DateRange[]>();
  for (const w of phase.filter((w) => w.table === table.name)) {
    const window = w.from === null ? everyDate : { from: w.from, to: w.to! };
    const dates = touched.dates ? touched.dates.get(w.connectionId)?.get(table.name) : null;
    // The window's part that no new row touches: what is left to rebuild is the rest.
    const ranges =
      !isRoutine(w) || dates === null ? [window] : subtractRanges([window], subtractRanges([window], dates ?? []));
    changed.set(w.connectionId, [...(changed.get(w.connectionId) ?? []), ...ranges]);
  }
  return changed;
}

/** The raw tables that hold rows of these landed files: those of their sources, for the files with rows. */
export async function rawTablesOf(wh: Warehouse, files: string[]): Promise<Set<string>> {
  if (files.length === 0) return new Set();
  return new Set((await sourcesWithRows(wh.sql, files)).map((source) => findSource(source).table));
}
