import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { MktdataError } from '../errors.ts';
import {
  columnSchema,
  defaultDataTypes,
  modelConfigSchema,
  type ColumnConfig,
  type ModelConfigInput,
} from './model-config.ts';
import { checkUnitTestInputs, issueWhere } from './unit-test-config.ts';
import { loadMacros } from '../db/macros.ts';

/** The project's models folder. */
import { modelsDir } from '../lib/project-paths.ts';

const schemas = ['seeds', 'staging', 'intermediate', 'marts'] as const;
export type ModelSchema = (typeof schemas)[number];

/** A column with its physical type resolved. */
export type Column = ColumnConfig & { dataType: string };

/** A model: a seed CSV or a SQL file, with its `.yml` and the models it reads. */
export interface Model {
  name: string;
  schema: ModelSchema;
  /** schema-qualified name, e.g. `marts.mkt_order_items_with_cogs` */
  id: string;
  kind: 'seed' | 'sql';
  path: string;
  sql: string;
  config: Omit<ModelConfigInput, 'columns'> & { columns: Column[] };
  /** ids of the models this one reads */
  deps: string[];
}

const referencePattern = /\b(seeds|staging|intermediate|marts)\.([a-z_][a-z0-9_]*)\b/g;
/** What a unit test may give: the models, and the raw and control-plane tables, the SQL reads. */
const readPattern = /\b(seeds|staging|intermediate|marts|raw|control)\.([a-z_][a-z0-9_]*)\b/g;

/** Each macro of `macros` by name, with its statement's text (comments left out: they name tables it may not read). */
function macroTexts(macros: string): Map<string, string> {
  const parts = macros.replace(/--[^\n]*/g, '').split(/(?=\bcreate or replace macro\s)/i);
  return new Map(
    parts.flatMap((text) => {
      const name = /^create or replace macro\s+([a-z_][a-z0-9_]*)\s*\(/i.exec(text)?.[1];
      return name ? [[name, text] as const] : [];
    }),
  );
}

/** The models `sql` reads: those it names, and those the macros it calls name (a macro reading a table hides it). */
function referencesOf(sql: string, macros: Map<string, string>, called = new Set<string>(), pattern = referencePattern) {
  const refs = [...sql.matchAll(pattern)].map((m) => `${m[1]}.${m[2]}`);
  for (const [name, text] of macros) {
    if (called.has(name) || !new RegExp(`\\b${name}\\s*\\(`).test(sql)) continue;
    called.add(name);
    refs.push(...referencesOf(text, macros, called, pattern));
  }
  return refs;
}

/**
 * Loads every model below `dir`, validating each `.yml`; order is dependency order.
 *
 * Parsing and validating the eighty `.yml` files is most of a command's fixed cost (0.5 s of `mktdata plan`), so
 * the result is kept, as JSON, keyed by a hash of every file it was made of and of this loader's own code: in
 * memory for the process, and on disk (`$MKTDATA_CACHE_DIR`, else `$XDG_CACHE_HOME/mktdata`, else
 * `~/.cache/mktdata`) for the next command. A changed, added or removed file changes the key; a cache that cannot
 * be read or written is ignored.
 */
export function loadModels(dir: string = modelsDir): Model[] {
  const key = graphKey(dir);
  let json = graphs.get(key);
  if (json === undefined) {
    const file = join(
      cacheDir(),
      `model-graph-${createHash('sha256')
        .update(`${resolve(dir)}\0${import.meta.url}`)
        .digest('hex')
        .slice(0, 16)}.json`,
    );
    json = readCache(file, key);
    if (json === undefined) {
      json = JSON.stringify(parseModels(dir));
      writeCache(file, key, json);
    }
    graphs.set(key, json);
  }
  return JSON.parse(json) as Model[];
}

const graphs = new Map<string, string>();
const extension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
/** The code that validates the graph: a change to it changes the key too. */
const loaderCode = [
  import.meta.url,
  new URL(`./model-config.${extension}`, import.meta.url).href,
  new URL(`./unit-test-config.${extension}`, import.meta.url).href,
  new URL(`../vocabulary/action-types.${extension}`, import.meta.url).href,
];

/** A hash of the models folder's files (names and contents) and of the loader's code. */
function graphKey(dir: string): string {
  const hash = createHash('sha256');
  for (const url of loaderCode) hash.update(readFileSync(new URL(url)));
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(sql|yml)$/.test(entry.name)) hash.update(`\0${path}\0`).update(readFileSync(path));
      else if (entry.name.endsWith('.csv')) hash.update(`\0${path}\0`);
    }
  };
  if (existsSync(dir)) walk(dir);
  return hash.digest('hex');
}

function cacheDir(): string {
  return process.env.MKTDATA_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'mktdata');
}

function readCache(file: string, key: string): string | undefined {
  try {
    const text = readFileSync(file, 'utf8');
    const newline = text.indexOf('\n');
    if (text.slice(0, newline) !== key) return undefined;
    const json = text.slice(newline + 1);
    JSON.parse(json); // a damaged file throws here
    return json;
  } catch {
    return undefined;
  }
}

function writeCache(file: string, key: string, json: string): void {
  try {
    mkdirSync(join(file, '..'), { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, `${key}\n${json}`);
    renameSync(partial, file); // whole or not at all, when two commands write at once
  } catch {
    // no cache: the next command parses again
  }
}

function parseModels(dir: string): Model[] {
  const common = loadCommonColumns(dir);
  const models: Model[] = [];
  for (const schema of schemas) {
    const folder = join(dir, schema);
    if (!existsSync(folder)) continue;
    for (const file of readdirSync(folder).sort()) {
      const kind = file.endsWith('.sql') ? 'sql' : file.endsWith('.csv') && schema === 'seeds' ? 'seed' : null;
      if (!kind) continue;
      const name = basename(file).replace(/\.(sql|csv)$/, '');
      const path = join(folder, file);
      const sql = kind === 'sql' ? readFileSync(path, 'utf8') : '';
      const config = loadConfig(join(folder, `${name}.yml`), common);
      models.push({ name, schema, id: `${schema}.${name}`, kind, path, sql, config, deps: [] });
    }
  }
  const ids = new Set(models.map((m) => m.id));
  const macros = macroTexts(loadMacros(dir));
  for (const model of models) {
    const refs = referencesOf(model.sql, macros);
    model.deps = [...new Set(refs)].filter((ref) => ref !== model.id && ids.has(ref));
    const reads = new Set(referencesOf(model.sql, macros, new Set(), readPattern));
    checkUnitTestInputs(model.path.replace(/\.(sql|csv)$/, '.yml'), model.config.unit_tests ?? [], reads);
  }
  const sorted = sortByDependencies(models);
  checkRuleHomes(sorted);
  const byId = new Map(sorted.map((m) => [m.id, m]));
  for (const model of sorted) {
    checkIncrement(model, byId);
    checkFollows(model, byId);
  }
  return sorted;
}

/** A model windowed like a catalog table (`window.follows`) is upstream of the marts, and follows a windowed one. */
function checkFollows(model: Model, byId: Map<string, Model>): void {
  const follows = model.config.window?.follows;
  if (follows === undefined) return;
  const table = byId.get(`marts.${follows}`);
  const reason =
    model.schema === 'marts'
      ? 'a mart has windows of its own'
      : !table?.config.window || !table.config.catalog
        ? `${follows} is not a windowed catalog table`
        : undefined;
  if (reason)
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: `${model.path.replace(/\.sql$/, '.yml')} window.follows`,
      reason,
    });
}

/**
 * A keyed model reads the table its run restricts to the changed keys (else the run would add every row again); one
 * that `reads` another model reads one keyed on the same raw table, by that model's key.
 */
function checkIncrement(model: Model, byId: Map<string, Model>): void {
  const increment = model.config.increment;
  if (!increment) return;
  const refuse = (reason: string) => {
    throw new MktdataError('ERR_INPUT_INVALID', { where: `${model.path.replace(/\.sql$/, '.yml')} increment`, reason });
  };
  const input = increment.reads ?? increment.raw;
  if (!new RegExp(`\\b${input.replace('.', '\\.')}\\b`).test(model.sql)) refuse(`${model.id} does not read ${input}`);
  if (!increment.reads) return;
  const read = byId.get(increment.reads)?.config.increment;
  if (read?.raw !== increment.raw || read.key.join(',') !== increment.reads_key!.join(',')) {
    refuse(
      `reads ${increment.reads}, which is not a model keyed on ${increment.raw} by (${increment.reads_key!.join(', ')})`,
    );
  }
}

/** Every rule a model lists lives in that model or in one it reads (directly or not): its lineage. */
function checkRuleHomes(sorted: Model[]): void {
  const ancestors = new Map<string, Set<string>>();
  for (const model of sorted) {
    const mine = new Set(model.deps);
    for (const dep of model.deps) for (const a of ancestors.get(dep)!) mine.add(a);
    ancestors.set(model.id, mine);
    for (const { rule, in: home } of model.config.rules) {
      if (home !== model.id && !mine.has(home))
        throw new MktdataError('ERR_INPUT_INVALID', {
          where: `${model.path.replace(/\.sql$/, '.yml')} rules`,
          reason: `"${rule}" lives in ${home}, which ${model.id} does not read`,
        });
    }
  }
}

/**
 * A YAML file parsed once per content: parsing is most of the time of loading the models, and a process that
 * builds repeatedly (the server, a benchmark) reads the same files again.
 */
const parsedFiles = new Map<string, { text: string; value: unknown }>();
function readYaml(file: string): unknown {
  const text = readFileSync(file, 'utf8');
  let entry = parsedFiles.get(file);
  if (entry?.text !== text) parsedFiles.set(file, (entry = { text, value: parse(text) }));
  return entry.value;
}

function loadCommonColumns(dir: string): ColumnConfig[] {
  const file = join(dir, 'common-columns.yml');
  if (!existsSync(file)) return [];
  const parsed = readYaml(file) as { columns: unknown[] };
  return parsed.columns.map((c) => columnSchema.parse(c));
}

function loadConfig(file: string, common: ColumnConfig[]): Model['config'] {
  if (!existsSync(file))
    throw new MktdataError('ERR_INPUT_INVALID', { where: file, reason: 'every model needs a same-named .yml' });
  const parsed = readYaml(file);
  const result = modelConfigSchema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: `${file} ${issueWhere(parsed, issue?.path ?? [])}`,
      reason: issue?.message ?? 'invalid',
    });
  }
  const columns = result.data.columns.flatMap((c) => ('include' in c ? common : [c]));
  return {
    ...result.data,
    columns: columns.map((c) => ({ ...c, dataType: c.data_type ?? defaultDataTypes[c.type] })),
  };
}

function sortByDependencies(models: Model[]): Model[] {
  const byId = new Map(models.map((m) => [m.id, m]));
  const sorted: Model[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (model: Model, path: string[]) => {
    if (state.get(model.id) === 'done') return;
    if (state.get(model.id) === 'visiting') {
      throw new MktdataError('ERR_INPUT_INVALID', {
        where: model.path,
        reason: `dependency cycle: ${[...path, model.id].join(' → ')}`,
      });
    }
    state.set(model.id, 'visiting');
    for (const dep of model.deps) visit(byId.get(dep)!, [...path, model.id]);
    state.set(model.id, 'done');
    sorted.push(model);
  };
  for (const model of models) visit(model, []);
  return sorted;
}
