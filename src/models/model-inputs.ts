import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Model } from './load-models.ts';

/**
 * What a windowed model's rows are made of, besides the dated rows of its sources that newly landed files touch
 * (pipelines' `touchedDates`) and the dates its windowed upstream models replaced. A pipeline's routine window
 * (a daily or monthly re-pull, a refresh) rebuilds only the dates those touch while these stay as they were at the
 * model's last build: the others would come out as they are.
 */
interface Behind {
  /** raw tables read by the model or by the views and keyed models it reads, which touched dates must cover */
  raw: Set<string>;
  /** tables whose content is fingerprinted: the whole tables and seeds it reads, the control tables read */
  tables: Set<string>;
  /** SQL that reads the clock: its rows change with the day, not with the data */
  clock: boolean;
  /** windowed models read (their replaced dates are added to the model's) */
  windowed: Set<string>;
  /** every model read on the way, whose SQL is fingerprinted */
  models: Model[];
}

const isWhole = (m: Model) =>
  m.kind === 'seed' || (!m.config.window && !m.config.increment && m.config.materialized !== 'view');
const clockPattern = /\b(current_date|current_timestamp|now\s*\(|today\s*\(|get_current_timestamp\s*\()/i;

/** What the model's rows depend on, up to its windowed upstream models (their changes come as replaced dates). */
export function behind(model: Model, byId: ReadonlyMap<string, Model>): Behind {
  const found: Behind = { raw: new Set(), tables: new Set(), clock: false, windowed: new Set(), models: [] };
  const visit = (m: Model) => {
    if (found.models.includes(m)) return;
    found.models.push(m);
    for (const [table] of m.sql.matchAll(/\braw\.[a-z0-9_]+/g)) found.raw.add(table);
    for (const [table] of m.sql.matchAll(/\bcontrol\.[a-z0-9_]+/g)) found.tables.add(table);
    found.clock ||= clockPattern.test(m.sql);
    for (const dep of m.deps.map((id) => byId.get(id)!)) {
      if (isWhole(dep)) {
        found.tables.add(dep.id);
        found.models.push(dep);
      } else if (dep.config.window) found.windowed.add(dep.id);
      else visit(dep);
    }
  };
  visit(model);
  return found;
}

/**
 * A digest of the SQL of the model and of what it reads up to its windowed and whole upstream models, of the macros,
 * and of the rows of those whole tables, seeds and control tables (small tables, rebuilt whole at each run).
 */
export async function inputsFingerprint(sql: DuckDBConnection, found: Behind, macros: string): Promise<string> {
  const digest = createHash('sha256').update(macros);
  for (const m of found.models) digest.update(`\0${m.id}\0${m.sql}`);
  for (const table of [...found.tables].sort()) {
    const reader = await sql.runAndReadAll(
      `select count(*)::varchar || ':' || coalesce(bit_xor(hash(t)), 0)::varchar || ':' || coalesce(sum(hash(t)::hugeint), 0)::varchar from ${table} as t`,
    );
    digest.update(`\0${table}\0${String(reader.getRowsJson()[0]![0])}`);
  }
  return digest.digest('hex');
}

/** The fingerprint of the model's inputs at its last build by a pipeline run, if one is kept. */
export async function storedFingerprint(sql: DuckDBConnection, modelId: string): Promise<string | undefined> {
  const reader = await sql.runAndReadAll(`select fingerprint from control.model_inputs where model = $model`, {
    model: modelId,
  });
  return reader.getRowsJson()[0]?.[0] as string | undefined;
}

/** Keeps the fingerprint of a pipeline run's build, or forgets it (`undefined`: a build outside a pipeline run). */
export async function keepFingerprint(
  sql: DuckDBConnection,
  modelId: string,
  fingerprint: string | undefined,
): Promise<void> {
  await sql.run(`delete from control.model_inputs where model = $model`, { model: modelId });
  if (fingerprint)
    await sql.run(`insert into control.model_inputs (model, fingerprint) values ($model, $fingerprint)`, {
      model: modelId,
      fingerprint,
    });
}

/**
 * A digest of what made the model's rows besides data: the SQL of the model and of every model upstream of it (a
 * seed's rows), and the macros. When it differs from the one kept at the model's last build, the model is rebuilt
 * whole (`sqlChanged`).
 */
export function lineageDigest(model: Model, byId: ReadonlyMap<string, Model>, macros: string): string {
  const upstream = new Map<string, Model>();
  const visit = (m: Model) => {
    if (upstream.has(m.id)) return;
    upstream.set(m.id, m);
    for (const dep of m.deps) visit(byId.get(dep)!);
  };
  visit(model);
  const digest = createHash('sha256').update(macros);
  for (const m of [...upstream.values()].sort((a, b) => (a.id < b.id ? -1 : 1)))
    digest.update(`\0${m.id}\0`).update(m.kind === 'seed' ? readFileSync(m.path) : m.sql);
  return digest.digest('hex');
}

/** The SQL digests kept at the models' last builds, and which tables and views exist: read once per run. */
export interface KeptSql {
  digests: Map<string, string>;
  tables: Set<string>;
}

/** Reads the kept digests and the existing tables of the warehouse (two queries, whatever the number of models). */
export async function keptSql(sql: DuckDBConnection): Promise<KeptSql> {
  const digests = await sql.runAndReadAll('select model, digest from control.model_sql');
  const tables = await sql.runAndReadAll(
    `select schema_name || '.' || table_name from duckdb_tables() where database_name = current_database()
     union all
     select schema_name || '.' || view_name from duckdb_views() where database_name = current_database() and not internal`,
  );
  return {
    digests: new Map(digests.getRowsJson().map(([model, digest]) => [String(model), String(digest)])),
    tables: new Set(tables.getRowsJson().map(([name]) => String(name))),
  };
}

/**
 * Whether the model's rows were made with the SQL `digest` says: `kept` (its kept digest is that one), `new` (none
 * kept and no table: nothing built yet) or `changed` (another digest kept, or none while its table exists: a home
 * made before digests were kept).
 */
export function sqlState(kept: KeptSql, modelId: string, digest: string): 'kept' | 'new' | 'changed' {
  const digestKept = kept.digests.get(modelId);
  if (digestKept !== undefined) return digestKept === digest ? 'kept' : 'changed';
  return kept.tables.has(modelId) ? 'changed' : 'new';
}

/** Keeps the digest of the SQL a build of the model used for every row it holds. */
export async function keepSqlDigest(
  sql: DuckDBConnection,
  kept: KeptSql,
  modelId: string,
  digest: string,
): Promise<void> {
  kept.digests.set(modelId, digest);
  await sql.run(`insert or replace into control.model_sql (model, digest) values ($model, $digest)`, {
    model: modelId,
    digest,
  });
}
