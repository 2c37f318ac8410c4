import type { Model } from '../models/load-models.ts';
import type { DateRange, RunWork } from '../models/run-models.ts';
import type { PlannedWindow } from './plan.ts';

const everyDate: DateRange = { from: '1900-01-01', to: '9999-12-31' };

/**
 * The models a phase runs: the windows of dated tables, snapshot tables whole, keyed staging models for the new
 * files, and (when `upstream`: the first phase, or one that landed new files) every other model upstream of them.
 */
export function workOf(models: Model[], phase: PlannedWindow[], files: string[], upstream: boolean): RunWork {
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
  // Upstream of what runs: keyed models take in the new files; other non-catalog models are rebuilt once.
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    const model = byId.get(id)!;
    model.deps.forEach(visit);
    if (model.schema === 'marts') return;
    // A keyed model without new files only has work when its table is still missing (runKeyed then builds it).
    if (model.config.increment) {
      if (upstream) work.keyed.add(id);
    } else if (upstream) work.whole.add(id);
  };
  [...work.windows.keys(), ...work.whole].forEach(visit);
  return work;
}
