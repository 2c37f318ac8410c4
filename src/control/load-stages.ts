import type { Warehouse } from '../db/warehouse.ts';
import type { Home } from '../home.ts';
import { readManifest } from '../publish/open-snapshot.ts';

export type InitialLoadStage = 'FIRST_STAGE' | 'SECOND_STAGE' | 'COMPLETE';

/**
 * The initial-load stage of each connection (API.md "Export sources"): FIRST_STAGE until a build has published
 * data landed for it; connections fed by landed files load whole, so they never sit in SECOND_STAGE.
 */
export async function initialLoadStages(wh: Warehouse, home: Home): Promise<(connectionId: string) => InitialLoadStage> {
  const publishedAt = readManifest(home)?.publishedAt;
  const landed = await wh.db
    .selectFrom('control.landed_files')
    .select(['connection_id', (eb) => eb.fn.min('landed_at').as('first')])
    .groupBy('connection_id')
    .execute();
  const firstLanded = new Map(landed.map((l) => [l.connection_id, String(l.first)]));
  return (id) => {
    const first = firstLanded.get(id);
    return first && publishedAt && Date.parse(first) <= Date.parse(publishedAt) ? 'COMPLETE' : 'FIRST_STAGE';
  };
}
