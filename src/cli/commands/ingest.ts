import type { Warehouse } from '../../db/warehouse.ts';
import { requireConnection } from '../../control/connections.ts';
import { MktdataError } from '../../errors.ts';
import { landFile, refusalText, type LandResult } from '../../ingest/land-file.ts';
import { findSource } from '../../ingest/sources/index.ts';
import { progress } from '../output.ts';

/** Lands files of one source for a connection, printing a line per file; throws when any was refused. */
export async function ingest(wh: Warehouse, connectionId: string, sourceName: string, files: string[]): Promise<LandResult[]> {
  const source = findSource(sourceName);
  const connection = await requireConnection(wh, connectionId);
  const bar = progress(`ingest ${source.name}`, files.length);
  const results: LandResult[] = [];
  for (const file of files) {
    bar.tick(file);
    results.push(await landFile(wh, source, { id: connection.id, marketplaceId: connection.marketplace_id }, file));
  }
  bar.stop();
  for (const r of results) {
    if (r.status === 'landed') console.log(`landed   ${r.file}: ${r.rows} rows (file ${r.fileId})`);
    if (r.status === 'skipped') console.log(`skipped  ${r.file}: already landed (file ${r.fileId})`);
    if (r.status === 'refused') console.error(`refused  ${r.file}: ${refusalText(r)} (kept in ${r.keptAt})`);
  }
  const refused = results.filter((r) => r.status === 'refused').length;
  if (refused > 0) throw new MktdataError('ERR_INGEST_FAILED', { count: refused });
  return results;
}
