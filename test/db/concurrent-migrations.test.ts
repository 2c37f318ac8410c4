// Issue 58 item 4: the control-plane migrations run forward exactly once, also with two processes starting at once.
// The warehouse's DuckDB: two `mktdata` processes open the same home made by the last release, with its newest
// migration not yet run, at once; DuckDB's file lock lets one writer in (src/db/warehouse.ts), so one migrates and
// the other finishes after it or is refused naming the holder, never both. PostgreSQL (Debian's, scaled out): kysely's
// Migrator takes a session advisory lock (pg_advisory_lock in kysely's postgres-adapter.js) and reads what ran
// inside it, so two processes migrating one database at once run each migration once; and a control plane recorded
// by a newer mktdata is refused before anything is written.
import { DuckDBInstance } from '@duckdb/node-api';
import { Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openPostgresControl } from '../../src/db/control-store.ts';
import { DuckDbDialect } from '../../src/db/kysely-duckdb.ts';
import { migrations } from '../../src/db/migrations/index.ts';
import { cli } from '../helpers/home.ts';
import { postgresMissing, startPostgres } from '../helpers/postgres.ts';
import { currentVersion, duck, unpackHome } from '../helpers/upgrade-fixture.ts';

if (postgresMissing) console.warn(postgresMissing);

const newest = Object.keys(migrations).sort().at(-1)!;

/** Runs the newest migration's `down` and forgets it ran, as a home of the release before it would be. */
async function rollBackNewest(db: Kysely<unknown>): Promise<void> {
  await migrations[newest]!.down!(db);
  await sql`delete from kysely_migration where name = ${newest}`.execute(db);
}

describe('migrations run once', () => {
  it('two processes opening one old home at once: one migrates, the other waits for it or is refused', async () => {
    const home = unpackHome();
    const instance = await DuckDBInstance.create(home.warehouse);
    const connection = await instance.connect();
    const db = new Kysely<unknown>({ dialect: new DuckDbDialect(connection) });
    await rollBackNewest(db);
    await sql`delete from control.settings where name = 'mktdata_version'`.execute(db);
    await db.destroy();
    connection.closeSync();
    instance.closeSync();

    const both = await Promise.all(
      [1, 2].map(() => cli(['connections', 'list', '--home', home.root], { env: { MKTDATA_HOME: undefined } })),
    );
    for (const r of both) {
      if (r.code !== 0) expect(r.stderr).toMatch(/is being written by another process/);
    }
    expect(both.some((r) => r.code === 0)).toBe(true);
    expect(await duck(home.warehouse, `select name from kysely_migration group by name having count(*) > 1`)).toEqual(
      [],
    );
    expect(
      await duck(home.warehouse, `select count(*)::int as n from kysely_migration where name = '${newest}'`),
    ).toEqual([{ n: 1 }]);
    expect(await duck(home.warehouse, `select value from control.settings where name = 'mktdata_version'`)).toEqual([
      { value: currentVersion },
    ]);
  });

  it.each(postgresMissing ? [] : ['PostgreSQL'])('%s: two processes at once run each migration once', async () => {
    const server = await startPostgres();
    try {
      const [a, b] = await Promise.all([openPostgresControl(server.url), openPostgresControl(server.url)]);
      await b.close();
      const ran = await sql<{ name: string; times: number }>`
        select name, count(*)::int as times from kysely_migration group by name order by name`.execute(a.db);
      expect(ran.rows).toEqual(
        Object.keys(migrations)
          .sort()
          .map((name) => ({ name, times: 1 })),
      );
      expect(
        (await sql<{ value: string }>`select value from control.settings where name = 'mktdata_version'`.execute(a.db))
          .rows,
      ).toEqual([{ value: currentVersion }]);

      // Recorded by a newer mktdata, with a migration pending for this one: refused, and the migration not run.
      await rollBackNewest(a.db as unknown as Kysely<unknown>);
      await sql`update control.settings set value = '99.0.0' where name = 'mktdata_version'`.execute(a.db);
      const refusal = await openPostgresControl(server.url).then(
        () => null,
        (error: Error & { code?: string }) => error,
      );
      expect(refusal?.code).toBe('ERR_HOME_NEWER');
      expect(refusal?.message).toContain(`last opened by mktdata 99.0.0; this is mktdata ${currentVersion}`);
      expect(refusal?.message).not.toContain(server.url);
      const pending = await sql<{ n: number }>`
        select count(*)::int as n from kysely_migration where name = ${newest}`.execute(a.db);
      expect(pending.rows).toEqual([{ n: 0 }]);
      await a.close();
    } finally {
      server.stop();
    }
  });
});
