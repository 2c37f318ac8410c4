import type { Warehouse } from '../../db/warehouse.ts';
import { requireConnection } from '../../control/connections/connections.ts';
import { MktdataError } from '../../errors.ts';
import { landFile, refusalText, type LandResult } from '../../ingest/land-file.ts';
import { findSource } from '../../ingest/sources/index.ts';
import { progress } from '../output.ts';
import { served } from '../served.ts';

/**
 * Lands files of one source for a connection and prints a line per file; a file that fails for another reason than
 * its content (a bug, a full disk) is reported beside the others, which still land. Throws when any did not land.
 */
export async function ingest(
  wh: Warehouse,
  connectionId: string,
  sourceName: string,
  files: string[],
): Promise<LandResult[]> {
  const source = findSource(sourceName);
  const connection = await requireConnection(wh, connectionId);
  const bar = progress(`ingest ${source.name}`, files.length);
  const results: LandResult[] = [];
  const errors: string[] = [];
  for (const file of files) {
    bar.tick(file);
    try {
      results.push(await landFile(wh, source, { id: connection.id, marketplaceId: connection.marketplace_id }, file));
    } catch (error) {
      errors.push(
        `error    ${file}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)} (nothing of it landed)`,
      );
    }
  }
  bar.stop();
  const metrics = served()?.metrics;
  for (const r of results) metrics?.landed({ ...r, source: source.name });
  for (const r of results) {
    if (r.status === 'landed') console.log(`landed   ${r.file}: ${r.rows} rows (file ${r.fileId})`);
    if (r.status === 'skipped') console.log(`skipped  ${r.file}: already landed (file ${r.fileId})`);
    if (r.status === 'refused') console.error(`refused  ${r.file}: ${refusalText(r)} (kept in ${r.keptAt})`);
  }
  for (const line of errors) console.error(line);
  const refused = results.filter((r) => r.status === 'refused').length;
  if (refused + errors.length > 0) throw new MktdataError('ERR_INGEST_FAILED', { count: refused + errors.length });
  return results;
}
