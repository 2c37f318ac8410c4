import type { DuckDBConnection } from '@duckdb/node-api';
import { recordChange } from './changes.ts';
import type { Model } from './load-models.ts';
import { checkColumns, runChecks, type CheckFinding } from './run-checks.ts';
import { columnDdl } from './tables.ts';
import { countRows, inTransaction } from '../db/sql.ts';

// The models rebuilt whole: seeds, tables and views (run-models.ts runs them in dependency order).

/** Loads a seed CSV into its table, in one transaction. */
export async function runSeed(sql: DuckDBConnection, model: Model) {
  const findings = await inTransaction(sql, async () => {
    await sql.run(`create or replace table ${model.id} as select * from read_csv($path, header=true)`, {
      path: model.path,
    });
    return runChecks(sql, model, model.id);
  });
  return { rows: await countRows(sql, model.id), findings };
}

/** Replaces the whole table in one transaction: readers and a failure see the old rows. */
export async function runTable(sql: DuckDBConnection, model: Model) {
  let findings: CheckFinding[] = [];
  await inTransaction(sql, async () => {
    if (model.config.catalog) {
      await checkColumns(sql, model);
      await sql.run(`create or replace table ${model.id} (${columnDdl(model)})`);
      await sql.run(`insert into ${model.id} by name ${model.sql}`);
    } else {
      await sql.run(`create or replace table ${model.id} as ${model.sql}`);
    }
    findings = await runChecks(sql, model, model.id);
    await recordChange(sql, model, 'whole');
  });
  return { rows: await countRows(sql, model.id), findings };
}

/** (Re)creates a view: nothing to count or check, its readers' rows are. */
export async function runView(sql: DuckDBConnection, model: Model): Promise<{ findings: CheckFinding[] }> {
  await sql.run(`create or replace view ${model.id} as ${model.sql}`);
  return { findings: [] };
}
