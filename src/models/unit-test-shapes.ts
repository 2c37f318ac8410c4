import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { Kysely } from 'kysely';
import type { ControlPlane } from '../db/control-plane.ts';
import { DuckDbDialect } from '../db/kysely-duckdb.ts';
import { installMacros } from '../db/macros.ts';
import { migrateControlPlane } from '../db/migrations/index.ts';
import { quote } from '../db/sql.ts';
import { duckDbOptions } from '../db/warehouse.ts';
import { ensureRawTables } from '../ingest/ensure-raw-tables.ts';
import type { Model } from './load-models.ts';
import { inline } from './run-incremental.ts';
import { columnDdl } from './tables.ts';

/** A column of a table a unit test creates: its name and DuckDB type. */
export interface ShapeColumn {
  name: string;
  type: string;
}

/**
 * The columns and types of the tables models read, as a build makes them: a raw table as ingest creates it, a
 * control-plane table as its migrations do, a catalog table from its `.yml`, a seed from its CSV, and any other model
 * as its SQL gives them (run on empty inputs). A unit test's given rows take these types, so that a date is a DATE and
 * an amount a DECIMAL without the test saying so. Worked out once per process, in a database of empty tables.
 */
export class TableShapes {
  private readonly byId: Map<string, Model>;
  private readonly made = new Map<string, Promise<void>>();
  private database?: Promise<{ instance: DuckDBInstance; sql: DuckDBConnection; db: Kysely<ControlPlane> }>;

  constructor(
    models: Model[],
    private readonly modelsDir?: string,
  ) {
    this.byId = new Map(models.map((m) => [m.id, m]));
  }

  /** The columns of a table a model reads; undefined when there is no such table. */
  async of(table: string): Promise<ShapeColumn[] | undefined> {
    const { sql } = await this.open();
    if (this.byId.has(table)) await this.make(table);
    const reader = await sql
      .runAndReadAll(`select name, type from pragma_table_info(${quote(table)})`)
      .catch(() => undefined);
    const rows = reader?.getRowObjectsJson() as ShapeColumn[] | undefined;
    return rows?.length ? rows : undefined;
  }

  async close(): Promise<void> {
    if (!this.database) return;
    const { instance, sql, db } = await this.database;
    await db.destroy();
    sql.closeSync();
    instance.closeSync();
  }

  /** Every raw and control-plane table exists from the start: they are what the models' SQL reads last. */
  private open() {
    this.database ??= (async () => {
      const instance = await DuckDBInstance.create(':memory:', duckDbOptions);
      const sql = await instance.connect();
      const db = new Kysely<ControlPlane>({ dialect: new DuckDbDialect(await instance.connect()) });
      await migrateControlPlane(db);
      await ensureRawTables(sql);
      await installMacros(sql, this.modelsDir);
      return { instance, sql, db };
    })();
    return this.database;
  }

  /** Creates a model's table, empty, after those it reads (once, even when asked for twice at once). */
  private make(id: string): Promise<void> {
    let made = this.made.get(id);
    if (!made) {
      made = (async () => {
        const model = this.byId.get(id)!;
        for (const dep of model.deps) await this.make(dep);
        const { sql } = await this.open();
        await sql.run(`create schema if not exists ${model.schema}`);
        if (model.kind === 'seed')
          await sql.run(`create table ${id} as select * from read_csv(${quote(model.path)}, header=true) limit 0`);
        else if (model.config.catalog) await sql.run(`create table ${id} (${columnDdl(model)})`);
        else await sql.run(`create table ${id} as select * from (${inline(model.sql, emptyVars)}) limit 0`);
      })();
      this.made.set(id, made);
    }
    return made;
  }
}

const emptyVars = { connection_ids: ['c1'], connection_id: 'c1', from: '1900-01-01', to: '9999-12-31', timezone: 'UTC' };
