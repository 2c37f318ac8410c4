import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { replaceRows } from '../../src/models/tables.ts';

// replaceRows writes only the rows of a window that differ; the window ends with exactly the source's rows.
describe('replaceRows', () => {
  async function tables(target: string, source: string) {
    const sql = await (await DuckDBInstance.create(':memory:')).connect();
    await sql.run(`create table target (id integer, d date, amount decimal(18, 2), note varchar)`);
    await sql.run(`create table source (id integer, d date, amount decimal(18, 2), note varchar)`);
    await sql.run(`insert into target values ${target}`);
    await sql.run(`insert into source values ${source}`);
    const rows = async () => (await sql.runAndReadAll(`select rowid, * from target order by id, rowid`)).getRowsJson();
    return { sql, rows };
  }
  // Two ranges, as windowRows writes a window of several connections or ranges: the condition is an `or`.
  const window = `d between date '2026-11-01' and date '2026-11-02' or d between date '2026-11-03' and date '2026-11-30'`;

  it('keeps the unchanged rows where they are, replaces the changed, adds the new, removes the gone, leaves the rest', async () => {
    // Row 1 is outside the window (the source's copy of it differs and is ignored); row 2 is unchanged, its null
    // included; row 3's amount changed; row 4 is gone; row 5 is new.
    const { sql, rows } = await tables(
      `(1, '2026-10-31', 1.00, 'old'), (2, '2026-11-01', 2.00, null), (3, '2026-11-02', 3.00, 'x'), (4, '2026-11-03', 4.00, 'x')`,
      `(1, '2026-10-31', 9.99, 'new'), (2, '2026-11-01', 2.00, null), (3, '2026-11-02', 3.01, 'x'), (5, '2026-11-04', 5.00, 'x')`,
    );
    await replaceRows(sql, 'target', 'source', window, 'd');
    // rowid 0 and 1 are the rows kept in place; the two written rows come after the four first inserted.
    expect(await rows()).toEqual([
      ['0', 1, '2026-10-31', '1.00', 'old'],
      ['1', 2, '2026-11-01', '2.00', null],
      ['4', 3, '2026-11-02', '3.01', 'x'],
      ['5', 5, '2026-11-04', '5.00', 'x'],
    ]);
  });

  it('replaces the whole window when a side holds the same row twice, so that each row has the source’s count', async () => {
    const { sql, rows } = await tables(
      `(1, '2026-11-01', 1.00, 'a'), (2, '2026-11-02', 2.00, 'b')`,
      `(1, '2026-11-01', 1.00, 'a'), (1, '2026-11-01', 1.00, 'a'), (2, '2026-11-02', 2.00, 'b')`,
    );
    await replaceRows(sql, 'target', 'source', window, 'd');
    expect((await rows()).map((r) => r.slice(1))).toEqual([
      [1, '2026-11-01', '1.00', 'a'],
      [1, '2026-11-01', '1.00', 'a'],
      [2, '2026-11-02', '2.00', 'b'],
    ]);
    await sql.run(`delete from source where id = 1`);
    await replaceRows(sql, 'target', 'source', window, 'd');
    expect((await rows()).map((r) => r.slice(1))).toEqual([[2, '2026-11-02', '2.00', 'b']]);
  });
});
