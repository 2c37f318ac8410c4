import { LIST, listValue, VARCHAR, type DuckDBConnection } from '@duckdb/node-api';
import { sql, type Insertable, type Kysely } from 'kysely';
import type { ControlPlane } from '../db/control-plane.ts';
import { quote } from '../db/sql.ts';

// control.landed_files, the record of every landed document: every query on it is in this file
// (test/db/control-table-modules.test.ts).

type Db = Kysely<ControlPlane>;
/** A landed file's row. */
export type LandedFileRow = Insertable<ControlPlane['control.landed_files']>;

/** Records a landed file (inside the caller's transaction when `db` is one). */
export async function recordLandedFile(db: Db, row: LandedFileRow): Promise<void> {
  await db.insertInto('control.landed_files').values(row).execute();
}

/** The id of the file of this content the connection landed for this source, or undefined. */
export async function landedFileOf(
  db: Db,
  file: { connectionId: string; source: string; sha256: string },
): Promise<string | undefined> {
  const existing = await db
    .selectFrom('control.landed_files')
    .select('id')
    .where('connection_id', '=', file.connectionId)
    .where('source', '=', file.source)
    .where('sha256', '=', file.sha256)
    .executeTakeFirst();
  return existing?.id;
}

/** The rows a landed file of the connection held, by its name; undefined when no such file landed. */
export async function landedRowCount(db: Db, connectionId: string, fileName: string) {
  const landed = await db
    .selectFrom('control.landed_files')
    .select(['row_count'])
    .where('connection_id', '=', connectionId)
    .where('file_name', '=', fileName)
    .executeTakeFirst();
  return landed?.row_count;
}

/** The id of every landed file. */
export async function landedFileIds(db: Db): Promise<Set<string>> {
  return new Set((await db.selectFrom('control.landed_files').select('id').execute()).map((r) => r.id));
}

/** When each connection's first file landed. */
export function firstLandings(db: Db) {
  return db
    .selectFrom('control.landed_files')
    .select(['connection_id', (eb) => eb.fn.min('landed_at').as('first')])
    .groupBy('connection_id')
    .execute();
}

/** What these connections landed: when first and last, how many files and rows. */
export function landingsOf(db: Db, connectionIds: string[]) {
  return db
    .selectFrom('control.landed_files')
    .select([
      'connection_id',
      (eb) => eb.fn.min('landed_at').as('first'),
      sql<string>`max(landed_at)`.as('landed_at'),
      sql<number>`count(*)`.as('files'),
      (eb) => eb.fn.sum<string>('row_count').as('rows'),
    ])
    .where('connection_id', 'in', connectionIds)
    .groupBy('connection_id')
    .execute();
}

/** The unit-cost files landed since `since`, as a subquery (`file_id in …`). */
export function cogsFilesLandedSince(db: Db, since: Date) {
  return db
    .selectFrom('control.landed_files')
    .select('id')
    .where('source', '=', 'cogs')
    .where('landed_at', '>=', since.toISOString());
}

/**
 * Files of these sources landed that the pipeline has not taken in (no control.pipeline_files row): a question about
 * the landed files.
 */
export function filesNotTakenIn(db: Db, pipeline: string, sources: string[]) {
  return db
    .selectFrom('control.landed_files as f')
    .select(['f.id', 'f.connection_id', 'f.source'])
    .where('f.source', 'in', sources)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('control.pipeline_files as p')
            .select('p.file_id')
            .whereRef('p.file_id', '=', 'f.id')
            .where('p.pipeline', '=', pipeline),
        ),
      ),
    )
    .execute();
}

// The queries below run on the warehouse's own DuckDB connection, inside the transaction of whoever holds it.

/** Records a landed file on the warehouse's connection. */
export async function recordLandedFileIn(
  duck: DuckDBConnection,
  file: { id: string; connectionId: string; source: string; sha256: string; fileName: string; size: number },
  rows: number,
  landedAt: string,
): Promise<void> {
  await duck.run(
    `insert into control.landed_files values ($id, $connectionId, $source, $sha256, $fileName, $size, $rows, $landedAt::timestamptz)`,
    { ...file, rows, landedAt },
  );
}

/** Records a batch of files of one source landed together, on the warehouse's connection. */
export async function recordLandedBatch(
  duck: DuckDBConnection,
  source: string,
  files: {
    id: string;
    connectionId: string;
    sha256: string;
    fileName: string;
    size: number;
    rows: number;
    landedAt: string;
  }[],
): Promise<void> {
  const list = (values: (string | number)[]) => listValue(values.map(String));
  await duck.run(
    `
      insert into control.landed_files
      select unnest($ids), unnest($connections), $source, unnest($hashes), unnest($names), unnest($sizes)::bigint, unnest($rows)::bigint, unnest($landed)::timestamptz`,
    {
      ids: list(files.map((f) => f.id)),
      connections: list(files.map((f) => f.connectionId)),
      source,
      hashes: list(files.map((f) => f.sha256)),
      names: list(files.map((f) => f.fileName)),
      sizes: list(files.map((f) => f.size)),
      rows: list(files.map((f) => f.rows)),
      landed: list(files.map((f) => f.landedAt)),
    },
    {
      ids: LIST(VARCHAR),
      connections: LIST(VARCHAR),
      hashes: LIST(VARCHAR),
      names: LIST(VARCHAR),
      sizes: LIST(VARCHAR),
      rows: LIST(VARCHAR),
      landed: LIST(VARCHAR),
    },
  );
}

/** Which of these contents of the source some connection landed already, as `<connection id>/<sha256>`. */
export async function landedContents(duck: DuckDBConnection, source: string, hashes: string[]): Promise<Set<string>> {
  const reader = await duck.runAndReadAll(
    `select connection_id || '/' || sha256 from control.landed_files where source = $source and sha256 in (select unnest($hashes))`,
    { source, hashes: listValue(hashes) },
    { hashes: LIST(VARCHAR) },
  );
  return new Set(reader.getRowsJson().map(([key]) => String(key)));
}

/** The sources of these landed files that brought rows. */
export async function sourcesWithRows(duck: DuckDBConnection, files: string[]): Promise<string[]> {
  const reader = await duck.runAndReadAll(
    `select distinct source from control.landed_files where row_count > 0 and id = any($files)`,
    { files: listValue(files) },
    { files: LIST(VARCHAR) },
  );
  return reader.getRowsJson().map(([source]) => String(source));
}

/** How many files have landed and when the last did, as one string that changes whenever a file lands. */
export async function landingStamp(duck: DuckDBConnection): Promise<unknown> {
  const reader = await duck.runAndReadAll(
    `select count(*)::varchar || ' ' || max(landed_at)::varchar from control.landed_files`,
  );
  return reader.getRowsJson()[0]![0];
}

/** How many of these files landed, and when the first of them did. */
export async function firstLandingOf(
  duck: DuckDBConnection,
  files: string[],
): Promise<{ count: number; since: string | null }> {
  const reader = await duck.runAndReadAll(
    `select count(*)::integer, min(landed_at)::varchar from control.landed_files where id in (${files.map(quote).join(', ')})`,
  );
  const [count, since] = reader.getRowsJson()[0] as [number, string | null];
  return { count, since };
}

/**
 * Makes the temp table `new_files(file_id, landed_at)` hold `files` with their landing times; a file not in
 * control.landed_files gets the earliest time there is, so that `_landed_at >= (select min(landed_at) from new_files)`
 * still finds its rows.
 */
export async function makeNewFiles(duck: DuckDBConnection, files: string[]): Promise<void> {
  await duck.run(
    `create or replace temp table new_files as
     select f.file_id, coalesce(l.landed_at, '-infinity'::timestamptz) as landed_at
     from (select unnest($ids::varchar[]) as file_id) as f left join control.landed_files as l on l.id = f.file_id`,
    { ids: listValue(files) },
    { ids: LIST(VARCHAR) },
  );
}
