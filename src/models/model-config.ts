import { z } from 'zod';
import { accessMode, actionTypes } from '../vocabulary/action-types.ts';
import { unitTestsSchema } from './unit-test-config.ts';

const severity = z.enum(['error', 'warn']).default('error');

/** A column check of a model `.yml`; each compiles to a query returning the bad rows. */
export const columnCheckSchema = z.union([
  z.literal('not_null'),
  z.literal('unique'),
  z
    .object({
      accepted_values: z.object({ values: z.array(z.union([z.string(), z.number(), z.boolean()])).min(1), severity }),
    })
    .strict(),
  z.object({ relationships: z.object({ to: z.string(), field: z.string(), severity }) }).strict(),
  z.object({ expression: z.object({ sql: z.string(), severity }) }).strict(),
]);
export type ColumnCheck = z.infer<typeof columnCheckSchema>;

/** A table-level check: a unique combination of columns, or an expression every row satisfies. */
export const modelCheckSchema = z.union([
  z.object({ unique: z.object({ columns: z.array(z.string()).min(1), severity }) }).strict(),
  z.object({ expression: z.object({ sql: z.string(), severity, description: z.string().optional() }) }).strict(),
]);
export type ModelCheck = z.infer<typeof modelCheckSchema>;

export const catalogTypes = ['TEXT', 'NUMBER', 'DATE', 'LOGIC', 'JSON'] as const;

/** Physical DuckDB type of a catalog type unless a column names its own `data_type`. */
export const defaultDataTypes: Record<(typeof catalogTypes)[number], string> = {
  TEXT: 'VARCHAR',
  NUMBER: 'DECIMAL(18,4)',
  DATE: 'DATE',
  LOGIC: 'BOOLEAN',
  JSON: 'JSON',
};

export const columnSchema = z
  .object({
    name: z.string().regex(/^[a-z_][a-z0-9_]*$/),
    type: z.enum(catalogTypes),
    data_type: z.string().optional(),
    nullable: z.boolean().default(true),
    /**
     * Why a column the spec marks not nullable can still hold nulls (an upstream gap, a spec rule that yields null);
     * documentation for the project only, not published in the catalog.
     */
    nullableNote: z.string().optional(),
    description: z.string().nullable().default(null),
    definition: z.string().optional(),
    warehouseOnly: z.boolean().optional(),
    checks: z.array(columnCheckSchema).default([]),
  })
  .strict();
export type ColumnConfig = z.infer<typeof columnSchema>;

const fetchPeriodSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('CONTINUOUS') }).strict(),
  z.object({ type: z.literal('INITIAL'), numberOfDays: z.number().int().positive() }).strict(),
  z.object({ type: z.literal('RECURRING_DAILY'), numberOfDays: z.number().int().positive() }).strict(),
  z
    .object({
      type: z.literal('RECURRING_MONTHLY'),
      numberOfDays: z.number().int().positive(),
      shiftDays: z.number().int().nonnegative(),
    })
    .strict(),
]);

/** The catalog entry of a published table (spec document 000, "Catalog source entry"), columns aside. */
export const catalogEntrySchema = z
  .object({
    id: z.string().regex(/^[0-9a-f]{64}$/),
    name: z.string(),
    type: z.enum(['SELLER_CENTRAL', 'VENDOR_CENTRAL', 'MKT_ADS']),
    userManaged: z.boolean(),
    isPremium: z.boolean(),
    defaultDataset: z.boolean(),
    enabled: z.boolean(),
    rowCountBilling: z.boolean(),
    description: z.string(),
    requiresDatePeriod: z.boolean(),
    issues: z.array(z.object({ title: z.string(), description: z.string() }).strict()),
    fetchPeriods: z.array(fetchPeriodSchema),
    dataAvailability: z
      .object({ type: z.enum(['INTRADAY', 'REAL_TIME']), description: z.string(), refreshAt: z.string() })
      .strict()
      .optional(),
    sources: z.array(z.string()),
    containsPii: z.boolean(),
    initialLoadProgress: z.null(),
    searchAliases: z.array(z.string()).optional(),
    // An action type of the spec; `writes` for a type that changes the account, `live` for one that reads it.
    relatedActions: z
      .array(
        z
          .object({ type: z.enum(actionTypes), relation: z.enum(['writes', 'live']) })
          .strict()
          .refine((a) => (a.relation === 'writes') === (accessMode(a.type) === 'WRITE'), {
            message: 'writes goes with a WRITE type, live with a READ one',
          }),
      )
      .optional(),
  })
  .strict();
export type CatalogEntry = z.infer<typeof catalogEntrySchema>;

/** A model's `.yml`: what the runner, the checks and the catalog read. */
export const modelConfigSchema = z
  .object({
    description: z.string(),
    grain: z.string(),
    /** `view`: no rows of its own; the models reading it filter it, and DuckDB takes their filters to its sources. */
    materialized: z.enum(['table', 'incremental', 'view']).default('table'),
    /**
     * Incremental models replace (connection, date window) slices; the SQL binds $connection_id, $from, $to. A model
     * upstream of the catalog tables `follows` one of them (by name): a pipeline run rebuilds the windows it rebuilds
     * for that table, the dates of that table's sources (its date_column holds the same dates), and no other.
     * `reads_days_before`: a row of a date reads its inputs' rows of that many days before too (a trailing window):
     * a change on a date changes the rows of the days after it up to that many. `dates_move`: a row's date can change,
     * by at most `within_days`, when another source's document lands (a settlement event takes its order's date once
     * the order is known): the keys of the rows a window writes are then looked for in the rows of the table that many
     * days either side, not only among those rows (the scan skips the row groups of the other dates).
     */
    window: z
      .object({
        date_column: z.string(),
        connection_column: z.string(),
        follows: z.string().optional(),
        reads_days_before: z.number().int().positive().optional(),
        dates_move: z.object({ within_days: z.number().int().positive() }).strict().optional(),
      })
      .strict()
      .optional(),
    /**
     * Keyed incremental models (staging) replace the rows of the keys that newly landed files hold (`raw_key`,
     * columns of the raw table): the runner deletes the model's rows whose `key` columns match and runs the SQL on
     * `raw` restricted to those keys. A model that reads another keyed model instead names it in `reads`, with the
     * columns of its key in `reads_key`. The SQL must compute each key's rows from that key's rows alone.
     */
    increment: z
      .object({
        raw: z.string().regex(/^raw\.[a-z0-9_]+$/),
        raw_key: z.array(z.string()).min(1),
        key: z.array(z.string()).min(1),
        reads: z
          .string()
          .regex(/^staging\.[a-z0-9_]+$/)
          .optional(),
        reads_key: z.array(z.string()).min(1).optional(),
        /**
         * SQL naming the keys the new files change, as rows (k0, k1, …) of `raw_key`'s columns, when not every key
         * they hold does (an order a daily report repeats as it was). It reads the temp table
         * `new_files(file_id, landed_at)`; without it, every key of the new files' rows is changed. A pipeline's
         * touchedDates may read the same keys (`changedKeysOf`).
         */
        changed: z.string().optional(),
        /**
         * A column the history is laid out by (an order's purchase date): `raw` in the raw table, `column` in the
         * model. A keyed run then reads and deletes only the rows at or after the least value among the new files'
         * rows of the changed keys and the rows the model keeps for them (run-keyed.ts `leastSince`), so that the
         * scans skip the older row groups.
         */
        since: z.object({ raw: z.string(), column: z.string() }).strict().optional(),
      })
      .strict()
      .refine((i) => i.raw_key.length === i.key.length, { message: 'raw_key and key name the same number of columns' })
      .refine(
        (i) =>
          (i.reads === undefined) === (i.reads_key === undefined) && (i.reads_key ?? i.key).length === i.key.length,
        {
          message: 'reads and reads_key go together, and reads_key names as many columns as key',
        },
      )
      .refine((i) => !(i.since && i.reads), {
        message: 'since bounds the raw table: a model that reads another model cannot take it',
      })
      .optional(),
    catalog: catalogEntrySchema.optional(),
    /**
     * A lookup every date of a catalog table shows (a SKU's latest product name, a child ASIN's parent): per table,
     * SQL giving (connection_id, date) of the table's rows that show the lookup's rows that a run changed (temp table
     * `changed_lookup_rows`: those rows as they were and as they are). A pipeline run rebuilds those dates too.
     */
    shown_in: z.record(z.string().regex(/^mkt_[a-z0-9_]+$/), z.string().min(1)).optional(),
    /**
     * The spec rules this model implements, each with the model where its SQL lives (this one or one it reads,
     * directly or not): `{rule: '001 Profit measure rules 11: profit, total_cost, acos, tacos, roi', in:
     * marts.mkt_profit_by_date}`.
     */
    rules: z
      .array(
        z
          .object({
            rule: z.string().min(1),
            in: z.string().regex(/^(seeds|staging|intermediate|marts)\.[a-z_][a-z0-9_]*$/),
          })
          .strict(),
      )
      .default([]),
    columns: z.array(z.union([columnSchema, z.object({ include: z.literal('common') }).strict()])).default([]),
    checks: z.array(modelCheckSchema).default([]),
    /** Given rows of the tables the SQL reads, and the rows it must give (unit-test-config.ts, unit-tests.ts). */
    unit_tests: unitTestsSchema,
  })
  .strict()
  .refine((c) => c.materialized !== 'incremental' || c.window || c.increment, {
    message: 'an incremental model needs `window` or `increment`',
  });
export type ModelConfigInput = z.infer<typeof modelConfigSchema>;
