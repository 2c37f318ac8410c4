import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { readerOptions } from '../../db/warehouse.ts';
import type { Home } from '../../home.ts';
import { withPublishedInstance } from '../../publish/snapshot-instances.ts';
import { failing, passing, reasonOf, type CheckOutcome, type ReadyCheck } from './ready-report.ts';

/** The folders that hold a published snapshot: the home's, or in a scaled-out install each shard's. */
function publishedDirs(home: Home): string[] {
  if (!home.shards) return [home.publishedDir];
  if (!existsSync(home.shards)) return [];
  return readdirSync(home.shards)
    .sort()
    .map((shard) => join(home.shards!, shard, 'published'));
}

/**
 * The published snapshot, once one was published, is readable: its manifest parses, and the file it describes is
 * there and opens read-only and answers. Opening is done once per snapshot (by its id and the file's inode, size and
 * time) on the instance the exports share, so a poll costs two small reads. In a scaled-out install every shard's
 * snapshot is checked.
 */
export function snapshotCheck(home: Home): ReadyCheck {
  const opened = new Map<string, { version: string; outcome: CheckOutcome }>();
  const options = readerOptions();
  const checkDir = async (dir: string): Promise<CheckOutcome | null> => {
    const name = (file: string) => relative(home.root, join(dir, file));
    let snapshotId: string;
    try {
      snapshotId = String(
        (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { snapshotId: string }).snapshotId,
      );
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null; // nothing published there yet
      return failing(`${name('manifest.json')} cannot be read: ${reasonOf(error, home.root)}`);
    }
    const file = join(dir, 'warehouse.duckdb');
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat) return failing(`${name('warehouse.duckdb')} is missing (its manifest names snapshot ${snapshotId})`);
    const version = `${snapshotId}/${stat.ino}/${stat.size}/${stat.mtimeMs}`;
    const known = opened.get(dir);
    if (known?.version === version) return known.outcome;
    const outcome = await withPublishedInstance(file, options, async (instance) => {
      const connection = await instance.connect();
      try {
        await connection.run('select 1');
      } finally {
        connection.closeSync();
      }
    }).then(
      () => passing(),
      (error: unknown) => failing(`${name('warehouse.duckdb')} does not open read-only: ${reasonOf(error, home.root)}`),
    );
    opened.set(dir, { version, outcome });
    return outcome;
  };
  return async () => {
    const outcomes = [];
    for (const dir of publishedDirs(home)) outcomes.push(await checkDir(dir));
    const failed = outcomes.find((o) => o !== null && !o.ok);
    if (failed) return failed;
    return outcomes.some((o) => o !== null) ? passing() : passing('ok: nothing published yet');
  };
}
