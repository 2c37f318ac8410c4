import { loadModels } from '../models/load-models.ts';
import type { CatalogEntry } from '../models/model-config.ts';
import { modelsDir } from '../lib/project-paths.ts';

/** A column as the catalog publishes it (spec document 000, "Catalog source entry"). */
export interface CatalogColumn {
  name: string;
  type: 'TEXT' | 'NUMBER' | 'DATE' | 'LOGIC' | 'JSON';
  nullable: boolean;
  description: string | null;
  definition?: string;
  warehouseOnly?: boolean;
}

/** A catalog source entry: the mart's `.yml` catalog block with its table name and columns. */
export type CatalogSource = Omit<CatalogEntry, 'id'> & { id: string; tableName: string; columns: CatalogColumn[] };

const cache = new Map<string, CatalogSource[]>();

/** Every catalog table: the marts with a catalog block in their `.yml`. */
export function catalogSources(dir: string = modelsDir): CatalogSource[] {
  let sources = cache.get(dir);
  if (!sources) {
    sources = loadModels(dir)
      .filter((m) => m.config.catalog)
      .map((m) => {
        const { id, ...entry } = m.config.catalog!;
        const columns = m.config.columns.map(({ name, type, nullable, description, definition, warehouseOnly }) => ({
          name,
          type,
          nullable,
          description,
          ...(definition ? { definition } : {}),
          ...(warehouseOnly ? { warehouseOnly } : {}),
        }));
        return { id, tableName: m.name, ...entry, columns };
      })
      .sort((a, b) => a.tableName.localeCompare(b.tableName));
    cache.set(dir, sources);
  }
  return sources;
}

/** Catalog filters of the spec endpoints: one keyword, the source type, the PII flag. */
export interface CatalogFilter {
  query?: string;
  sourceType?: CatalogSource['type'];
  containsPii?: boolean;
}

/**
 * The entries matching a filter; `query` matches name, table name, id, aliases, descriptions and columns,
 * case-insensitively.
 */
export function findSources(filter: CatalogFilter, dir?: string): CatalogSource[] {
  const keyword = filter.query?.trim().toLowerCase();
  return catalogSources(dir).filter((s) => {
    if (filter.sourceType && s.type !== filter.sourceType) return false;
    if (filter.containsPii !== undefined && s.containsPii !== filter.containsPii) return false;
    return !keyword || searchText(s).includes(keyword);
  });
}

/**
 * What a catalog search matches, lowercased: name, table name, id, aliases, descriptions and columns (one line each).
 */
export function searchText(s: CatalogSource): string {
  return [
    s.name,
    s.tableName,
    s.id,
    s.description,
    ...(s.searchAliases ?? []),
    ...s.columns.flatMap((c) => [c.name, c.description ?? '']),
  ]
    .join('\n')
    .toLowerCase();
}

/** How fresh a catalog table is: when its data was last refreshed, and through which date no run will change it. */
export interface Freshness {
  /** The end of the latest run that rebuilt and published it (or the latest publish of a build without runs). */
  lastRefreshedAt: string | null;
  /**
   * The last local date its scheduled windows no longer revisit: the date of its latest refresh minus its restatement
   * window (the widest of RECURRING_DAILY n and RECURRING_MONTHLY n + shift days; for a dated CONTINUOUS table, the
   * widest of the tables it is computed from). The earliest over connections; null for snapshots and before a run.
   */
  finalThrough: string | null;
  /** When the live connectors last fetched one of its sources (a document landed, or the marketplace had none). */
  lastFetchedAt: string | null;
  /** Requests for its sources that failed and wait for a retry, or were given up in the last 7 days. */
  failedFetches: number;
}

/** What a catalog table's model says besides its catalog block: its grain and the spec rules its SQL implements. */
export interface TableModel {
  grain: string;
  rules: string[];
}

/** The grain and rules of a catalog table's model; null for a name that is no catalog table. */
export function tableModel(tableName: string, dir: string = modelsDir): TableModel | null {
  if (!catalogSources(dir).some((s) => s.tableName === tableName)) return null;
  const model = loadModels(dir).find((m) => m.name === tableName)!;
  return { grain: model.config.grain, rules: (model.config.rules ?? []).map((r) => r.rule) };
}
