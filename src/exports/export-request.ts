import { z } from 'zod';

/** Filter operators of docs/design/API.md ("Exports"), as the query builders of the service's clients name them. */
export const filterOperators = [
  '=',
  '!=',
  '>',
  '>=',
  '<',
  '<=',
  'contains',
  'beginsWith',
  'endsWith',
  'doesNotContain',
  'doesNotBeginWith',
  'doesNotEndWith',
  'in',
  'notIn',
  'between',
  'notBetween',
  'null',
  'notNull',
] as const;
export type FilterOperator = (typeof filterOperators)[number];

export const aggregationFunctions = ['count', 'countDistinct', 'sum', 'avg', 'min', 'max'] as const;
export const outputTypes = ['CSV', 'JSON', 'PARQUET'] as const;
export type OutputType = (typeof outputTypes)[number];

const scalar = z.union([z.string().max(1024), z.number(), z.boolean()]);

export const filterRuleSchema = z
  .object({
    field: z.string().min(1).max(128),
    operator: z.enum(filterOperators),
    value: z
      .union([scalar, z.array(scalar).max(1000)])
      .nullable()
      .optional(),
    not: z.boolean().default(false),
  })
  .strict();
export type FilterRule = z.infer<typeof filterRuleSchema>;

export const filterGroupSchema = z
  .object({
    combinator: z.enum(['and', 'or']).default('and'),
    rules: z.array(filterRuleSchema).max(16),
  })
  .strict();
export type FilterGroup = z.infer<typeof filterGroupSchema>;

/** `YYYY-MM-DD`, or an ISO date-time whose marketplace-local date is used. */
const dateOrDateTime = z.union([z.iso.date(), z.iso.datetime({ offset: true, local: false })]);

export const aggregationSchema = z
  .object({
    column: z.string().min(1).max(128),
    aggregation: z.enum(aggregationFunctions),
    alias: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,63}$/, 'lowercase letters, digits and _, starting with a letter or _')
      .optional(),
  })
  .strict();
export type Aggregation = z.infer<typeof aggregationSchema>;

/** Every field of an export but the period: what a schedule stores (docs/design/API.md "Schedules"). */
export const exportQueryFields = {
  sellerOrVendorIds: z.array(z.string().min(1).max(64)).min(1).max(100),
  sourceId: z
    .string()
    .regex(/^([0-9a-f]{10}|[0-9a-f]{64})$/, 'the 64-hex source id or its first 10 hex characters')
    .optional(),
  tableName: z.string().min(1).max(128).optional(),
  columns: z.array(z.string().min(1).max(128)).max(500).optional(),
  filters: filterGroupSchema.optional(),
  having: filterGroupSchema.optional(),
  groupBy: z.array(z.string().min(1).max(128)).max(16).optional(),
  aggregations: z.array(aggregationSchema).max(16).optional(),
  dateInterval: z.enum(['DAY', 'WEEK', 'MONTH']).optional(),
  orderByColumn: z.string().min(1).max(128).optional(),
  orderByDirection: z
    .enum(['ASC', 'DESC', 'asc', 'desc'])
    .transform((d) => d.toUpperCase() as 'ASC' | 'DESC')
    .optional(),
  limit: z.number().int().min(1).max(1_000_000_000).optional(),
  skip: z.number().int().min(0).max(1_000_000_000).optional(),
  outputType: z.enum(outputTypes).default('CSV'),
  sendToAllOrganizationMembers: z.boolean().default(false),
};

const oneSource = (r: { sourceId?: string; tableName?: string }) =>
  (r.sourceId === undefined) !== (r.tableName === undefined);
const oneSourceMessage = { message: 'give exactly one of sourceId and tableName', path: ['sourceId'] };

/**
 * ExportRequest (docs/design/API.md "Exports"): one catalog table for some connections, shaped by the optional clauses.
 */
export const exportRequestSchema = z
  .object({ ...exportQueryFields, from: dateOrDateTime.optional(), to: dateOrDateTime.optional() })
  .strict()
  .refine(oneSource, oneSourceMessage);
export type ExportRequest = z.output<typeof exportRequestSchema>;
export type ExportRequestInput = z.input<typeof exportRequestSchema>;

/** The fields of an ExportRequest a schedule keeps (no period: it computes one at each run). */
export const exportQuerySchema = z.object(exportQueryFields).strict().refine(oneSource, oneSourceMessage);
