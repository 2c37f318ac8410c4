import type PgBoss from 'pg-boss';
import type { ControlStore } from '../db/control-store.ts';
import { loadMarketplaces } from '../control/marketplaces.ts';
import type { Pipeline } from '../pipelines/pipeline-config.ts';
import { localClock } from '../pipelines/plan.ts';
import { requestPipelineRun } from './pipeline-jobs.ts';
import { marketplacesInUse } from '../control/connections/connections.ts';
import { claimSlot } from '../control/schedule-firings.ts';

/**
 * The pipelines' refresh times in a scaled-out install: every worker looks each minute, and the first to record
 * the minute's slot of a due pipeline (`schedule_firings`, keyed `pipeline:<name>`) queues its run for every shard;
 * the others find the slot taken. A pipeline is due when the minute is one of its refresh times on any
 * connection's marketplace clock, as in a single home's scheduler. Returns the pipelines it queued.
 */
export async function firePipelines(
  store: ControlStore,
  boss: PgBoss,
  pipelines: Pipeline[],
  shards: readonly string[],
  now: Date,
): Promise<string[]> {
  const marketplaces = loadMarketplaces();
  const used = await marketplacesInUse(store.db);
  const zones = [...new Set(used.map((id) => marketplaces.get(id)?.timezone ?? 'UTC'))];
  const slot = new Date(Math.floor(now.getTime() / 60_000) * 60_000).toISOString();
  const fired: string[] = [];
  for (const pipeline of pipelines.filter((p) =>
    zones.some((zone) => p.refreshAt.includes(localClock(now, zone).minutes)),
  )) {
    if (!(await claimSlot(store.db, `pipeline:${pipeline.name}`, slot, now.toISOString()))) continue;
    for (const shard of shards)
      await requestPipelineRun(boss, { pipeline: pipeline.name, shard, reason: `schedule ${slot}` });
    fired.push(pipeline.name);
  }
  return fired;
}
