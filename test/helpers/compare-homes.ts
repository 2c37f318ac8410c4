import { DuckDBInstance } from '@duckdb/node-api';
import type { Home } from '../../src/home.ts';
import { readManifest } from '../../src/publish/open-snapshot.ts';

/** Columns that say when a home saw a row (its landing or upload time), which two homes never share. */
const seenAt = ['last_seen_at'];
const seenAtOf: Record<string, string[]> = { mkt_cogs: ['updated_at'] };

/** Per published table of `a`: its rows, and the rows only in `a` and only in `b` (except all, both ways). */
export async function compareHomes(
  a: Home,
  b: Home,
): Promise<{ table: string; rows: number; onlyA: number; onlyB: number; duplicates: number }[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const sql = await instance.connect();
  try {
    await sql.run(`attach '${a.published}' as a (read_only); attach '${b.published}' as b (read_only)`);
    const out = [];
    for (const { name } of readManifest(a)?.tables ?? []) {
      const cols = `columns(c -> c not in (${[...seenAt, ...(seenAtOf[name] ?? [])].map((c) => `'${c}'`).join(', ')}))`;
      const count = async (query: string) => Number((await sql.runAndReadAll(query)).getRowsJson()[0]![0]);
      out.push({
        table: name,
        rows: await count(`select count(*) from a.${name}`),
        onlyA: await count(
          `select count(*) from (select ${cols} from a.${name} except all select ${cols} from b.${name})`,
        ),
        onlyB: await count(
          `select count(*) from (select ${cols} from b.${name} except all select ${cols} from a.${name})`,
        ),
        duplicates: await count(
          `select count(*) - (select count(*) from (select distinct * from a.${name})) from a.${name}`,
        ),
      });
    }
    return out;
  } finally {
    sql.closeSync();
    instance.closeSync();
  }
}
