import type { ControlStore } from '../../db/control-store.ts';
import type { Warehouse } from '../../db/warehouse.ts';
import type { Home } from '../../home.ts';
import { controlPlaneCheck, warehouseCheck } from './control-plane-checks.ts';
import { diskCheck } from './disk-check.ts';
import { loopCheck, passing, type ReadyCheck } from './ready-report.ts';
import { snapshotCheck } from './snapshot-check.ts';

// Which checks each kind of process answers `/ready` with (docs/operations.md, "Health and readiness").

/** A loop the process keeps running: null while it is alive, else why not. */
export interface Loop {
  liveness(): string | null;
}

/**
 * `mktdata serve` on a single home: `warehouse`, `snapshot`, `scheduler` (`off` with --no-pipelines; left out for an
 * app built without one) and `disk` (the home's).
 */
export function serveChecks(wh: Warehouse, scheduler?: Loop | 'off'): Record<string, ReadyCheck> {
  return {
    warehouse: warehouseCheck(wh),
    snapshot: snapshotCheck(wh.home),
    ...(scheduler === undefined
      ? {}
      : { scheduler: scheduler === 'off' ? async () => passing('off') : loopCheck(() => scheduler.liveness()) }),
    disk: diskCheck(wh.home.root, 'the home'),
  };
}

/** An API replica of a scaled-out install: `control-plane` (PostgreSQL), `snapshot` (every shard's), `disk`. */
export function replicaChecks(store: ControlStore, home: Home): Record<string, ReadyCheck> {
  return {
    'control-plane': controlPlaneCheck(store.db, 'PostgreSQL'),
    snapshot: snapshotCheck(home),
    disk: diskCheck(home.root, 'the shared folder'),
  };
}

/** A scaled-out worker's listener: `control-plane` (PostgreSQL), `disk` (its work folder's) and `shard-loop`. */
export function workerChecks(store: ControlStore, workDir: string, shardLoop: Loop): Record<string, ReadyCheck> {
  return {
    'control-plane': controlPlaneCheck(store.db, 'PostgreSQL'),
    disk: diskCheck(workDir, 'its work folder'),
    'shard-loop': loopCheck(() => shardLoop.liveness()),
  };
}
