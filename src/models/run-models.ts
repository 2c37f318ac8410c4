import type { DuckDBConnection } from '@duckdb/node-api';
import type { Warehouse } from '../db/warehouse.ts';
import { MktdataError } from '../errors.ts';
import { ensureRawTables } from '../ingest/ensure-raw-tables.ts';
import { CheckFailure, type CheckFinding } from './run-checks.ts';
import { loadModels, type Model } from './load-models.ts';
import { allDates, type DateRange } from './date-ranges.ts';
import {
  behind,
  inputsFingerprint,
  keepFingerprint,
  keepSqlDigest,
  keptSql,
  lineageDigest,
  sqlState,
  storedFingerprint,
} from './model-inputs.ts';
import { forgetHeld, runKeyed, type KeyedRun } from './run-keyed.ts';
import { runSeed, runTable, runView } from './run-table.ts';
import {
  runIncremental,
  sliceConnections,
  type SliceConnection,
  type Unbuilt,
  type WindowResult,
} from './run-incremental.ts';
import { describe, inTransaction, tableColumns } from '../db/sql.ts';
import { installMacros } from '../db/macros.ts';

export type { CheckFinding, Unbuilt, WindowResult };
export { inTransaction };

/** Options of a build (CLI `mktdata build`). */
export interface RunOptions {
  /** Model names to run, with everything upstream of them; all when empty. */
  select?: string[];
  /** With `select`: also run the models the selected ones read. @default true */
  upstream?: boolean;
  /** Inclusive date window of incremental models. @default every date */
  from?: string;
  to?: string;
  /** Drop and rebuild incremental tables whole. @default false */
  fullRefresh?: boolean;
  /** What a pipeline run rebuilds (src/pipelines); it replaces `select`, `from`, `to` and `fullRefresh`. */
  work?: RunWork;
  onModel?: (model: Model, index: number, total: number) => void;
  onResult?: (result: ModelResult) => void;
  /** @default the project's models/ folder */
  modelsDir?: string;
}

/** Exactly what a pipeline run rebuilds; a model named nowhere here is not run. */
export interface RunWork {
  /** Windowed models: the date ranges to replace, per connection id. */
  windows: Map<string, Map<string, DateRange[]>>;
  /** Models rebuilt whole. */
  whole: Set<string>;
  /** Keyed models (`increment`), run for the keys of these newly landed files. */
  keyed: Set<string>;
  newFiles: string[];
  /**
   * Windowed models whose routine windows need only some dates while their other inputs are as at their last build
   * by a pipeline run (model-inputs.ts): those dates per connection, to which the dates their windowed upstream
   * models replace are added.
   */
  changed?: Map<string, Map<string, DateRange[]>>;
}

/**
 * The outcome of one model: success, error (its windows rolled back) or skipped (a dependency failed). A windowed
 * model may fail for some connections only: `unbuilt` names them, and its status is then that of the worst of them.
 */
export interface ModelResult {
  model: string;
  status: 'success' | 'error' | 'skipped';
  rows?: number;
  /** Windowed models: what each (connection, range) wrote; `from`/`to` span every date on a whole rebuild. */
  windows?: WindowResult[];
  /** Windowed models: the connections not built while others were (their old rows stand). */
  unbuilt?: Unbuilt[];
  findings: CheckFinding[];
  error?: string;
  ms: number;
  /** Its SQL, a model's upstream of it, or the macros changed since its last build: it was rebuilt whole. */
  sqlChanged?: true;
}

type Outcome = Pick<ModelResult, 'rows' | 'windows' | 'unbuilt' | 'findings'> & { fingerprint?: string };

/** Runs the models in dependency order; never throws for a model's failure, it reports it. */
export async function runModels(wh: Warehouse, options: RunOptions = {}): Promise<ModelResult[]> {
  const work = options.work;
  const all = loadModels(options.modelsDir);
  const models = work
    ? all.filter((m) => work.whole.has(m.id) || work.windows.has(m.id) || work.keyed.has(m.id))
    : selectModels(all, options.select ?? [], options.upstream ?? true);
  // Staging models read raw tables that may not have been landed into yet.
  if (models.some((m) => /\braw\./.test(m.sql))) await ensureRawTables(wh.sql);
  const macros = await installMacros(wh.sql, options.modelsDir);
  const failed = new Set<string>();
  // Per model, the connections it did not build while it built others: the models reading it skip them.
  const failedFor = new Map<string, Set<string>>();
  const results: ModelResult[] = [];
  const report = (result: ModelResult) => {
    results.push(result);
    options.onResult?.(result);
  };
  // Looked up once per run, when the first incremental model needs them (seeds may be built before).
  let connections: Promise<SliceConnection[]> | undefined;
  const keyedRun: KeyedRun = { files: work?.newFiles ?? [], keyed: new Set() };
  const byId = new Map(all.map((m) => [m.id, m]));
  const kept = await keptSql(wh.sql);
  // Per windowed model run, the dates it replaced per connection (its readers replace them too).
  const replaced = new Map<string, Map<string, DateRange[]>>();
  for (const [index, model] of models.entries()) {
    options.onModel?.(model, index, models.length);
    const started = Date.now();
    const blocker = model.deps.find((dep) => failed.has(dep));
    if (blocker) {
      failed.add(model.id);
      report({ model: model.id, status: 'skipped', findings: [], error: `${blocker} did not succeed`, ms: 0 });
      continue;
    }
    try {
      // A build without work rebuilds keyed models whole: it does not know which files are new. A model keyed on
      // another's rows is rebuilt whole when that one was, and one whose SQL changed since its last build (an
      // upgrade, an edit): its other dates and keys hold rows of the old SQL.
      const reads = model.config.increment?.reads;
      const digest = lineageDigest(model, byId, macros);
      const state = sqlState(kept, model.id, digest);
      // Not built yet: every row it will hold is of this SQL, whatever the build does. Changed: once built whole.
      if (state === 'new') await keepSqlDigest(wh.sql, kept, model.id, digest);
      const changedSql = state === 'changed';
      const whole =
        changedSql ||
        (work ? work.whole.has(model.id) : options.fullRefresh || !model.config.window) ||
        (reads !== undefined && !keyedRun.keyed.has(reads));
      const { fingerprint, ...outcome }: Outcome =
        model.kind === 'seed'
          ? await runSeed(wh.sql, model)
          : model.config.increment && !whole
            ? await runKeyed(wh.sql, model, keyedRun)
            : model.config.window
              ? await runWindowed(wh.sql, model, whole, await (connections ??= sliceConnections(wh.sql)))
              : model.config.materialized === 'view'
                ? await runView(wh.sql, model)
                : await runTable(wh.sql, model);
      const unbuilt = outcome.unbuilt?.length ? outcome.unbuilt : undefined;
      // A pipeline run's build keeps its fingerprint; a build outside one forgets it (it may have used other inputs).
      if (model.config.window && !unbuilt && (!work || fingerprint))
        await keepFingerprint(wh.sql, model.id, fingerprint);
      const flag = changedSql ? { sqlChanged: true as const } : {};
      if (!unbuilt) {
        if (changedSql) await keepSqlDigest(wh.sql, kept, model.id, digest);
        report({ model: model.id, status: 'success', ...outcome, unbuilt, ms: Date.now() - started, ...flag });
        continue;
      }
      failedFor.set(model.id, new Set(unbuilt.map((u) => u.connectionId)));
      const errors = unbuilt.filter((u) => u.status === 'error');
      const error = `not built for ${unbuilt.length} connection(s)${errors.length > 0 ? `; ${errors[0]!.connectionId}: ${errors[0]!.error}` : ''}`;
      report({
        model: model.id,
        status: errors.length > 0 ? 'error' : 'success',
        ...outcome,
        unbuilt,
        error,
        ms: Date.now() - started,
        ...flag,
      });
    } catch (error) {
      failed.add(model.id);
      const findings = error instanceof CheckFailure ? error.findings : [];
      report({ model: model.id, status: 'error', findings, error: describe(error), ms: Date.now() - started });
    } finally {
      if (model.config.increment) forgetHeld(wh.sql, model);
    }
  }
  return results;

  /**
   * A windowed model's run: its windows, or only the dates `work.changed` names and those its windowed upstream
   * models replaced, when its inputs' fingerprint is the one kept at its last build by a pipeline run.
   */
  async function runWindowed(
    sql: DuckDBConnection,
    model: Model,
    rebuild: boolean,
    connections: SliceConnection[],
  ): Promise<Outcome> {
    // A model that follows a table makes its missing table whole: the table it follows may have its history already.
    const whole =
      rebuild || (model.config.window!.follows !== undefined && (await tableColumns(sql, model.id)) === undefined);
    const ranges = whole ? 'whole' : windowsOf(model, options, connections);
    const changed = whole ? undefined : work?.changed?.get(model.id);
    const fingerprint = changed && (await inputsFingerprint(sql, behind(model, byId), macros));
    const compute =
      changed && fingerprint === (await storedFingerprint(sql, model.id))
        ? withUpstream(
            changed,
            model.deps.map((dep) => replaced.get(dep)),
          )
        : undefined;
    const outcome = await runIncremental(
      sql,
      model,
      connections,
      ranges,
      new Set(model.deps.flatMap((dep) => [...(failedFor.get(dep) ?? [])])),
      compute,
    );
    replaced.set(
      model.id,
      compute ?? (ranges === 'whole' ? new Map(connections.map((c) => [c.connection_id, [allDates]])) : ranges),
    );
    return { ...outcome, fingerprint };
  }
}

/** `changed` with the dates of upstream replacements added, per connection. */
function withUpstream(
  changed: Map<string, DateRange[]>,
  upstream: (Map<string, DateRange[]> | undefined)[],
): Map<string, DateRange[]> {
  const all = new Map([...changed].map(([id, ranges]) => [id, [...ranges]]));
  for (const [id, ranges] of upstream.flatMap((m) => [...(m ?? [])])) all.set(id, [...(all.get(id) ?? []), ...ranges]);
  return all;
}

/** The ranges to replace per connection: the work's, or the build's one window for every connection. */
function windowsOf(model: Model, options: RunOptions, connections: SliceConnection[]): Map<string, DateRange[]> {
  const window = { from: options.from ?? allDates.from, to: options.to ?? allDates.to };
  return options.work?.windows.get(model.id) ?? new Map(connections.map((c) => [c.connection_id, [window]]));
}

function selectModels(models: Model[], select: string[], upstream: boolean): Model[] {
  if (select.length === 0) return models;
  const byName = new Map(
    models.flatMap(
      (m) =>
        [
          [m.name, m],
          [m.id, m],
        ] as const,
    ),
  );
  const wanted = new Set<string>();
  const add = (model: Model) => {
    if (wanted.has(model.id)) return;
    wanted.add(model.id);
    if (upstream) model.deps.forEach((dep) => add(byName.get(dep)!));
  };
  for (const name of select) {
    const model = byName.get(name);
    if (!model) throw new MktdataError('ERR_MODEL_UNKNOWN', { name });
    add(model);
  }
  return models.filter((m) => wanted.has(m.id));
}
