import { z } from 'zod';
import { MktdataError } from '../errors.ts';
import { loadModels, type Column, type Model } from '../models/load-models.ts';

/** A file export of one catalog table: the CLI's `mktdata export` (the API's ExportRequest grows from it). */
export const fileExportSchema = z.object({
  table: z.string().min(1),
  connections: z.array(z.string().min(1)).min(1),
  from: z.string().date().optional(),
  to: z.string().date().optional(),
  format: z.enum(['csv', 'json', 'parquet']).default('csv'),
});
export type FileExport = z.input<typeof fileExportSchema>;

/** The catalog table of that name, or ERR_TABLE_UNKNOWN. */
export function findCatalogTable(name: string): Model {
  const tables = loadModels().filter((m) => m.schema === 'marts' && m.config.catalog);
  const found = tables.find((m) => m.name === name);
  if (!found) throw new MktdataError('ERR_TABLE_UNKNOWN', { name, known: tables.map((m) => m.name).join(', ') });
  return found;
}

/**
 * Amounts are kept at 4 decimals in the warehouse and rounded to the currency's minor unit (cents)
 * only here, at export (design/PROFIT.md); a column with its own `data_type` is exported as stored.
 */
function exportExpression(column: Column): string {
  if (column.type === 'NUMBER' && !column.data_type) return `round(${column.name}, 2)::decimal(18,2) as ${column.name}`;
  return column.name;
}

/** Builds the checked SELECT of an export and its bound values; no user text becomes SQL. */
export function buildExportQuery(input: FileExport): { sql: string; params: Record<string, string> } {
  const request = fileExportSchema.parse(input);
  const model = findCatalogTable(request.table);
  const catalog = model.config.catalog!;
  const hasPeriod = request.from !== undefined || request.to !== undefined;
  if (catalog.requiresDatePeriod && (!request.from || !request.to)) {
    throw new MktdataError('ERR_INPUT_INVALID', { where: '--from/--to', reason: `${model.name} requires a date period: give both --from and --to` });
  }
  if (!catalog.requiresDatePeriod && hasPeriod) {
    throw new MktdataError('ERR_INPUT_INVALID', { where: '--from/--to', reason: `${model.name} takes no date period` });
  }
  if (request.from && request.to && request.from > request.to) {
    throw new MktdataError('ERR_INPUT_INVALID', { where: '--from/--to', reason: `--from ${request.from} is after --to ${request.to}` });
  }
  const params: Record<string, string> = {};
  const ids = request.connections.map((id, i) => {
    params[`c${i}`] = id;
    return `$c${i}`;
  });
  const where = [`seller_or_vendor_id in (${ids.join(', ')})`];
  if (request.from && request.to) {
    where.push('date between $from::date and $to::date');
    Object.assign(params, { from: request.from, to: request.to });
  }
  const select = model.config.columns.map(exportExpression).join(', ');
  return { sql: `select ${select} from ${model.name} where ${where.join(' and ')} order by all`, params };
}

/** DuckDB COPY options per output format; JSON is a flat array of row objects. */
export const copyOptions: Record<'csv' | 'json' | 'parquet', string> = {
  csv: "format csv, header true",
  json: 'format json, array true',
  parquet: 'format parquet, compression zstd',
};
