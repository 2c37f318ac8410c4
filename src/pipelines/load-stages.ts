import type { ControlStore } from '../db/control-store.ts';
import type { Home } from '../home.ts';
import { readManifest } from '../publish/open-snapshot.ts';
import { recordedLoadStages } from '../control/connections/load-stages.ts';
import { firstLandings } from '../control/landed-files.ts';

export type InitialLoadStage = 'FIRST_STAGE' | 'SECOND_STAGE' | 'COMPLETE';

/**
 * The initial-load stage of each connection (docs/design/API.md "Export sources"). A connection loaded by pipeline runs
 * has the stage its runs recorded (FIRST_STAGE, SECOND_STAGE while the older part of its INITIAL windows loads,
 * COMPLETE).
 * Otherwise it is in FIRST_STAGE until a build has published data landed for it, then COMPLETE: files landed by hand
 * load whole, so such a connection never sits in SECOND_STAGE.
 */
export async function initialLoadStages(
  wh: ControlStore,
  home: Home,
): Promise<(connectionId: string) => InitialLoadStage> {
  const publishedAt = readManifest(home)?.publishedAt;
  const landed = await firstLandings(wh.db);
  const firstLanded = new Map(landed.map((l) => [l.connection_id, String(l.first)]));
  const recorded = new Map((await recordedLoadStages(wh.db)).map((c) => [c.id, c.stage]));
  return (id) => {
    const stage = recorded.get(id);
    if (stage) return stage;
    const first = firstLanded.get(id);
    return first && publishedAt && Date.parse(first) <= Date.parse(publishedAt) ? 'COMPLETE' : 'FIRST_STAGE';
  };
}
