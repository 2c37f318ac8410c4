import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { catalogSources, type CatalogSource } from '../catalog/catalog.ts';
import { MktdataError } from '../errors.ts';
import { sources as ingestSources } from '../ingest/sources/index.ts';
import { loadModels } from '../models/load-models.ts';

/** The project's pipelines folder. */
import { pipelinesDir } from '../lib/project-paths.ts';

/** `10am, 1pm, 4:30pm` → minutes after local midnight, sorted. */
export function parseRefreshAt(text: string): number[] {
  const times = text.split(',').map((part) => {
    const match = /^\s*(\d{1,2})(?::(\d{2}))?\s*(am|pm)\s*$/i.exec(part);
    const hour = Number(match?.[1]);
    const minute = Number(match?.[2] ?? 0);
    if (!match || hour < 1 || hour > 12 || minute > 59)
      throw new Error(`"${part.trim()}" is not a time of day like 10am or 4:30pm`);
    return ((hour % 12) + (match[3]!.toLowerCase() === 'pm' ? 12 : 0)) * 60 + minute;
  });
  return [...new Set(times)].sort((a, b) => a - b);
}

const refreshAtSchema = z.string().superRefine((text, ctx) => {
  try {
    parseRefreshAt(text);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
  }
});

const sourceSettingsSchema = z
  .object({
    /** Longest date range one upstream request may cover; the plan splits fetch windows into such chunks. */
    maxDaysPerRequest: z.number().int().positive().optional(),
    /**
     * SQL naming the dates that newly landed rows of this source touch, as rows (connection_id, date_from, date_to)
     * of marketplace-local dates. It reads temp tables `new_files(file_id, landed_at)` and
     * `connection_zones(connection_id, timezone)`. Without it, a new file of the source makes the tables it feeds
     * rebuild every date of its connection.
     */
    touchedDates: z.string().optional(),
    /**
     * A keyed model whose changed keys touchedDates reads, as temp table `changed` (k0, k1, …, its increment's
     * raw_key): the keys the model's run then replaces (src/models/run-keyed.ts makeChanged), so that the dates
     * rebuilt are those of exactly the keys taken in, found once. With the increment's `since`, also `held` (k0, k1,
     * …, since): the rows the model holds for those keys before the run (makeHeld), found once for both.
     */
    changedKeysOf: z.string().optional(),
  })
  .strict()
  .refine((s) => s.touchedDates || !s.changedKeysOf, { message: 'changedKeysOf goes with touchedDates' });

/** A pipeline file, `pipelines/<name>.yml`. */
export const pipelineFileSchema = z
  .object({
    description: z.string(),
    /** Catalog tables the pipeline keeps fresh; a table belongs to one pipeline. */
    tables: z.array(z.string()).min(1),
    /** Refresh times of the tables without `dataAvailability`, in each connection's marketplace timezone. */
    refreshAt: refreshAtSchema.optional(),
    /** The first stage of an INITIAL load: this many of the most recent days. */
    firstStageDays: z.number().int().positive().default(30),
    /** Every upstream source the tables read (their catalog `sources`), with its settings. */
    sources: z.record(
      z.string(),
      sourceSettingsSchema.nullable().transform((s) => s ?? {}),
    ),
  })
  .strict();

export type SourceSettings = z.infer<typeof sourceSettingsSchema>;

/** A table of a pipeline with what planning needs of its catalog entry. */
export interface PipelineTable {
  name: string;
  /** `schema.name` of its model */
  model: string;
  fetchPeriods: CatalogSource['fetchPeriods'];
  /** Refresh times, minutes after local midnight: its `dataAvailability.refreshAt`, else the pipeline's. */
  refreshAt: number[];
  /** Whether the table has a date window (incremental); otherwise each refresh rebuilds it whole. */
  dated: boolean;
  /** Dated tables of its pipeline that its model reads (order items, for returns, settlements, ads and profit). */
  reads: string[];
  /** A row of a date reads its inputs of this many days before too: a change on a date touches the days after it. */
  readsDaysBefore: number;
  sources: string[];
}

export interface Pipeline {
  name: string;
  description: string;
  firstStageDays: number;
  tables: PipelineTable[];
  sources: Record<string, SourceSettings>;
  /** Every refresh time of its tables, minutes after local midnight. */
  refreshAt: number[];
}

/** Loads and checks every `pipelines/*.yml` against the catalog and the ingest sources. */
export function loadPipelines(dir: string = pipelinesDir): Pipeline[] {
  if (!existsSync(dir)) throw new MktdataError('ERR_INPUT_INVALID', { where: dir, reason: 'no pipelines folder' });
  const catalog = new Map(catalogSources().map((s) => [s.tableName, s]));
  const sourceNames = new Set(ingestSources.map((s) => s.name));
  const marts = new Map(
    loadModels()
      .filter((m) => m.schema === 'marts')
      .map((m) => [m.name, m]),
  );
  const windowed = new Set([...marts.values()].filter((m) => m.config.window).map((m) => m.name));
  const keyed = new Set(
    loadModels()
      .filter((m) => m.config.increment)
      .map((m) => m.id),
  );
  const owner = new Map<string, string>();
  const pipelines: Pipeline[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.yml'))
    .sort()) {
    const path = join(dir, file);
    const fail = (where: string, reason: string): never => {
      throw new MktdataError('ERR_INPUT_INVALID', { where: `${path}${where ? ` ${where}` : ''}`, reason });
    };
    const parsed = pipelineFileSchema.safeParse(parse(readFileSync(path, 'utf8')));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      fail(issue.path.join('.'), issue.message);
    }
    const config = parsed.data!;
    const name = basename(file, '.yml');
    for (const [source, settings] of Object.entries(config.sources)) {
      if (!sourceNames.has(source)) fail(`sources.${source}`, 'not an ingest source (see docs/design/INGEST.md)');
      const keyedBy = settings.changedKeysOf;
      if (keyedBy && !keyed.has(keyedBy))
        fail(`sources.${source}.changedKeysOf`, `${keyedBy} is not a keyed model (one with \`increment\`)`);
    }
    const tables = config.tables.map((tableName, i): PipelineTable => {
      const entry = catalog.get(tableName) ?? fail(`tables.${i}`, `${tableName} is not a catalog table`);
      if (owner.has(tableName)) fail(`tables.${i}`, `${tableName} is already in pipeline ${owner.get(tableName)}`);
      owner.set(tableName, name);
      for (const source of entry.sources) {
        if (!(source in config.sources)) fail('sources', `${tableName} reads ${source}, which is not listed`);
      }
      const refreshAt =
        entry.dataAvailability?.refreshAt ??
        config.refreshAt ??
        fail('refreshAt', `${tableName} has no dataAvailability: the pipeline needs refreshAt`);
      return {
        name: tableName,
        model: `marts.${tableName}`,
        fetchPeriods: entry.fetchPeriods,
        refreshAt: parseRefreshAt(refreshAt),
        dated: windowed.has(tableName),
        reads: (marts.get(tableName)?.deps ?? [])
          .map((id) => id.replace(/^marts\./, ''))
          .filter((name) => windowed.has(name) && config.tables.includes(name)),
        readsDaysBefore: marts.get(tableName)?.config.window?.reads_days_before ?? 0,
        sources: entry.sources,
      };
    });
    const refreshAt = [...new Set(tables.flatMap((t) => t.refreshAt))].sort((a, b) => a - b);
    pipelines.push({
      name,
      description: config.description,
      firstStageDays: config.firstStageDays,
      tables,
      sources: config.sources,
      refreshAt,
    });
  }
  return pipelines;
}

/** The pipeline of that name. */
export function findPipeline(pipelines: Pipeline[], name: string): Pipeline {
  const pipeline = pipelines.find((p) => p.name === name);
  if (!pipeline)
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: '--pipeline',
      reason: `no pipeline ${name}; known: ${pipelines.map((p) => p.name).join(', ')}`,
    });
  return pipeline;
}
