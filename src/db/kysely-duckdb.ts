import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Kysely,
  type SchemaMetadata,
  type TableMetadata,
  type QueryResult,
} from 'kysely';

/** Serializes access to one DuckDB connection: kysely may ask for it concurrently. */
class ConnectionGate {
  private tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((done) => (release = done));
    const ready = this.tail.then(() => release);
    this.tail = this.tail.then(() => next);
    return ready;
  }
}

class DuckDbKyselyConnection implements DatabaseConnection {
  constructor(private readonly connection: DuckDBConnection) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const values = query.parameters.map(toDuckDbValue);
    const reader = await this.connection.runAndReadAll(query.sql, values);
    const rows = reader.getRowObjectsJson() as R[];
    // DuckDB reports changed rows as a one-row result with a "Count" column for DML.
    const isDml = /^\s*(insert|update|delete)\b/i.test(query.sql) && !/\breturning\b/i.test(query.sql);
    if (isDml) {
      const count = BigInt(String((rows[0] as Record<string, unknown> | undefined)?.Count ?? 0));
      return { rows: [], numAffectedRows: count };
    }
    return { rows };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported by the DuckDB kysely driver');
  }
}

function toDuckDbValue(value: unknown): DuckDBValue {
  if (value instanceof Date) return value.toISOString();
  if (value === undefined) return null;
  return value as DuckDBValue;
}

class DuckDbDriver implements Driver {
  private readonly gate = new ConnectionGate();
  private readonly releases = new Map<DatabaseConnection, () => void>();
  private readonly wrapped: DuckDbKyselyConnection;

  constructor(connection: DuckDBConnection) {
    this.wrapped = new DuckDbKyselyConnection(connection);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    this.releases.set(this.wrapped, await this.gate.acquire());
    return this.wrapped;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin transaction'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.releases.get(connection)?.();
    this.releases.delete(connection);
  }

  async destroy(): Promise<void> {}
}

/** DuckDB speaks PostgreSQL's SQL dialect closely enough for kysely's Postgres compiler. */
export class DuckDbDialect implements Dialect {
  constructor(private readonly connection: DuckDBConnection) {}

  createDriver(): Driver {
    return new DuckDbDriver(this.connection);
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }

  createAdapter() {
    return new DuckDbAdapter();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new DuckDbIntrospector(db);
  }
}

/** One writer per home (DuckDB's file lock), so the migration lock has nothing to guard. */
class DuckDbAdapter extends PostgresAdapter {
  override async acquireMigrationLock(): Promise<void> {}
  override async releaseMigrationLock(): Promise<void> {}
}

/** Enough introspection for kysely's migrator, read from DuckDB's information_schema. */
class DuckDbIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await this.db.executeQuery<{ name: string }>(
      CompiledQuery.raw('select schema_name as name from information_schema.schemata'),
    );
    return rows;
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await this.db.executeQuery<{ schema: string; name: string; is_view: boolean }>(
      CompiledQuery.raw(
        "select table_schema as schema, table_name as name, table_type = 'VIEW' as is_view from information_schema.tables",
      ),
    );
    return rows.map((row) => ({ schema: row.schema, name: row.name, isView: row.is_view, columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}
