import { requireConnection } from '../../control/connections/connections.ts';
import { earliestCogsDateOf } from '../../control/cogs.ts';
import type { Warehouse } from '../../db/warehouse.ts';
import { MktdataError } from '../../errors.ts';
import { ingest } from './ingest.ts';
import { cogsRebuild, type CogsRebuild } from '../../pipelines/cogs-rebuild.ts';

/** One line per window a unit-cost change schedules, as the API's CogsUpsertResponse lists them. */
export const rebuildLines = (rebuild: CogsRebuild) =>
  rebuild.windows.map((w) => `rebuild  ${w.pipeline} ${w.table} ${w.from === null ? 'whole' : `from ${w.from}`}`);

/**
 * `mktdata cogs import`: lands a unit-cost CSV for a seller connection (the `cogs` source, as POST /cogs upserts)
 * and prints what the next runs rebuild.
 */
export async function importCogs(wh: Warehouse, connectionId: string, file: string): Promise<void> {
  const connection = await requireConnection(wh, connectionId);
  if (connection.type !== 'SELLER_CENTRAL') {
    throw new MktdataError('ERR_CONNECTION_TYPE', {
      id: connectionId,
      type: connection.type,
      what: 'unit costs',
      needed: 'SELLER_CENTRAL',
    });
  }
  const [result] = await ingest(wh, connectionId, 'cogs', [file]);
  if (result?.status !== 'landed') return;
  const from = await earliestCogsDateOf(wh.db, result.fileId);
  if (from) for (const line of rebuildLines(cogsRebuild(from))) console.log(line);
}
