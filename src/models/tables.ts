import type { DuckDBConnection } from '@duckdb/node-api';
import type { Model } from './load-models.ts';
import { tableColumns } from '../db/sql.ts';

/** Whether the model's table has the `.yml` columns, in order. */
export async function tableMatches(sql: DuckDBConnection, model: Model): Promise<boolean> {
  const actual = (await tableColumns(sql, model.id)) ?? [];
  return actual.join(',') === model.config.columns.map((c) => `${c.name} ${c.dataType}`).join(',');
}

export const columnDdl = (model: Model) => model.config.columns.map((c) => `${c.name} ${c.dataType}`).join(', ');

/**
 * Makes `target`'s rows where `where` holds the same rows as `source`'s there, writing only those that differ: a
 * daily window's rows are mostly the ones it already holds, and DuckDB's cost is in writing rows (then in the
 * commit that stores the row groups they changed). Rows are told apart by the hash of the whole row; when either
 * side has two rows with one hash (the same row twice, or two that collide), every row there is replaced instead.
 * (A changed row is missed only when its 64-bit hash equals that of a row it does not equal in the same window.)
 * Both tables have the same columns in the same order, and `source` is a table (its rows are written by rowid); the
 * rows written go in `orderBy` order. Call it in a transaction.
 */
export async function replaceRows(
  sql: DuckDBConnection,
  target: string,
  source: string,
  where: string,
  orderBy: string,
): Promise<void> {
  await sql.run(
    `create or replace temp table fresh_row_hashes as select r.rowid as id, hash(r) as h from ${source} as r where ${where}`,
  );
  await sql.run(
    `create or replace temp table stale_row_hashes as select r.rowid as id, hash(r) as h from ${target} as r where ${where}`,
  );
  const reader = await sql.runAndReadAll(`
    select (select count(*) = count(distinct h) from fresh_row_hashes) and (select count(*) = count(distinct h) from stale_row_hashes)`);
  if (reader.getRowsJson()[0]?.[0] !== true) {
    await sql.run(`delete from ${target} where ${where}`);
    await sql.run(`insert into ${target} select * from ${source} where ${where} order by ${orderBy}`);
  } else {
    await sql.run(
      `delete from ${target} where rowid in (select id from stale_row_hashes anti join fresh_row_hashes using (h))`,
    );
    await sql.run(`
      insert into ${target} select * from ${source}
      where rowid in (select id from fresh_row_hashes anti join stale_row_hashes using (h))
      order by ${orderBy}`);
  }
  // (Not in a `finally`: after a failed statement the transaction takes no other, and the failure must be the one
  // reported; the temporary tables go with its rollback, or are replaced by the next call.)
  for (const table of ['fresh_row_hashes', 'stale_row_hashes']) await sql.run(`drop table ${table}`);
}
