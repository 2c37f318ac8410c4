import { readFileSync } from 'node:fs';
import { MktdataError } from '../../errors.ts';
import { exportRequestSchema } from '../../exports/export-request.ts';
import { resolveExport } from '../../exports/export-source.ts';
import { writeExport } from '../../exports/write-export.ts';
import type { Home } from '../../home.ts';
import { publishedConnections } from '../../publish/open-snapshot.ts';

/** Options of `mktdata export`: flags, over an ExportRequest read from `--request`. */
export interface ExportOptions {
  request?: string;
  table?: string;
  connection?: string[];
  from?: string;
  to?: string;
  format?: 'csv' | 'json' | 'parquet';
  out: string;
}

/**
 * Writes one export to a file through the same request model, checks and writer as the HTTP export, so the
 * same request gives the same bytes. It reads only the published snapshot and its manifest (never the writer's
 * file), so it works while `mktdata serve` or a build runs; it is not metered.
 */
export async function exportToFile(home: Home, o: ExportOptions): Promise<number> {
  let base: Record<string, unknown> = {};
  if (o.request) {
    try {
      base = JSON.parse(readFileSync(o.request, 'utf8')) as Record<string, unknown>;
    } catch (error) {
      throw new MktdataError('ERR_INPUT_INVALID', {
        where: o.request,
        reason: `not a readable JSON ExportRequest (${(error as Error).message})`,
      });
    }
  }
  const input = {
    ...base,
    ...(o.table ? { tableName: o.table, sourceId: undefined } : {}),
    ...(o.connection ? { sellerOrVendorIds: o.connection } : {}),
    ...(o.from ? { from: o.from } : {}),
    ...(o.to ? { to: o.to } : {}),
    ...(o.format ? { outputType: o.format.toUpperCase() } : {}),
  };
  const parsed = exportRequestSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new MktdataError('ERR_INPUT_INVALID', { where: issue.path.join('.') || 'request', reason: issue.message });
  }
  const connections = publishedConnections(home);
  if (!connections) throw new MktdataError('ERR_NOT_PUBLISHED', { home: home.root });
  const { query } = resolveExport(parsed.data, connections);
  const { rows } = await writeExport(home, query, parsed.data.outputType, o.out);
  return rows;
}
