// A PostgreSQL control plane whose server ends a connection while mktdata holds it (PostgreSQL stopped or restarted
// in the middle of a transaction) fails that work, never the process: pg emits 'error' on a checked-out connection,
// and an 'error' nobody listens to would end `serve` (vitest reports it as an unhandled error, failing this file).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresControl } from '../../src/db/control-store.ts';
import { postgresMissing, startPostgres } from '../helpers/postgres.ts';

if (postgresMissing) console.warn(postgresMissing);

describe.skipIf(postgresMissing !== null)('a PostgreSQL connection ended by the server', () => {
  let server: Awaited<ReturnType<typeof startPostgres>>;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server?.stop());

  it('fails the work holding it and leaves the store usable', async () => {
    const store = await openPostgresControl(server.url);
    const other = await openPostgresControl(server.url);
    try {
      const failure = await store.db
        .transaction()
        .execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          await sql`select pg_terminate_backend(${rows[0]!.pid})`.execute(other.db);
          // The server's goodbye arrives between two statements; the next one finds the connection gone.
          for (;;) await sql`select 1`.execute(trx);
        })
        .then(
          () => undefined,
          (error: Error) => error,
        );
      // Which error depends on what pg read first (the server's FATAL message, the socket reset, its end, or a
      // statement sent after): the work failed, whichever it is.
      expect(failure).toBeInstanceOf(Error);
      // The same store connects again for the next query.
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(store.db);
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await other.close();
      await store.close();
    }
  });
});
