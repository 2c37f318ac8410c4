import { z } from 'zod';
import { MktdataError } from '../errors.ts';

// A model's unit tests (the `unit_tests` of its `.yml`): given rows of the tables its SQL reads, the rows it must give.
// dbt's unit tests (`given:` inputs with rows, `expect: rows`), keyed by the names this project's SQL reads.

/** A row as the `.yml` writes it: column → value (a number, string, boolean, null, or a list or map for a nested type). */
const rowSchema = z.record(z.string().regex(/^[a-z_][a-z0-9_]*$/), z.unknown());

/** A table the model reads by schema-qualified name: a model, a raw table or a control-plane table. */
export const inputNamePattern = /^(seeds|staging|intermediate|marts|raw|control)\.[a-z_][a-z0-9_]*$/;

export const unitTestSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9_]+$/),
    description: z.string().optional(),
    /**
     * The values of the SQL's `$` parameters (a windowed model's `$connection_ids`, `$from`, `$to`, `$timezone`).
     * @default connection c1, every date, UTC
     */
    vars: z
      .object({
        connection_ids: z.array(z.string()).min(1).optional(),
        connection_id: z.string().optional(),
        from: z.string().optional(),
        to: z.string().optional(),
        timezone: z.string().optional(),
      })
      .strict()
      .default({}),
    /** The rows of each table the SQL reads; a table it reads and no `given` names is empty. */
    given: z.array(z.object({ input: z.string().regex(inputNamePattern), rows: z.array(rowSchema) }).strict()),
    /** The model's rows, compared on the columns they name only, in any order. */
    expect: z.object({ rows: z.array(rowSchema) }).strict(),
  })
  .strict();
export type UnitTest = z.infer<typeof unitTestSchema>;

export const unitTestsSchema = z
  .array(unitTestSchema)
  .refine((tests) => new Set(tests.map((t) => t.name)).size === tests.length, {
    message: 'two unit tests have one name',
  })
  .optional();

/** The vars a test runs with: its own, else connection `c1`, every date and UTC. */
export function varsOf(test: UnitTest): Record<string, string | string[]> {
  const ids = test.vars.connection_ids ?? [test.vars.connection_id ?? 'c1'];
  return {
    connection_ids: ids,
    connection_id: test.vars.connection_id ?? ids[0]!,
    from: test.vars.from ?? '1900-01-01',
    to: test.vars.to ?? '9999-12-31',
    timezone: test.vars.timezone ?? 'UTC',
  };
}

/**
 * Refuses a test that gives a table the model does not read (a typo would otherwise leave the real input empty) or
 * gives one twice. `reads`: what the SQL names, and the tables of the macros it calls.
 */
export function checkUnitTestInputs(file: string, tests: UnitTest[], reads: ReadonlySet<string>): void {
  for (const test of tests) {
    const seen = new Set<string>();
    for (const { input } of test.given) {
      const reason = !reads.has(input)
        ? `the model does not read ${input}`
        : seen.has(input)
          ? `${input} is given twice`
          : undefined;
      if (reason)
        throw new MktdataError('ERR_INPUT_INVALID', { where: `${file} unit_tests ${test.name} given`, reason });
      seen.add(input);
    }
  }
}

/** Where in a `.yml` a validation issue is, naming a unit test by its name rather than its index. */
export function issueWhere(parsed: unknown, path: PropertyKey[]): string {
  const [key, index, ...rest] = path;
  const name = (parsed as { unit_tests?: { name?: unknown }[] } | null)?.unit_tests?.[Number(index)]?.name;
  if (key !== 'unit_tests' || typeof index !== 'number' || typeof name !== 'string') return path.join('.');
  return ['unit_tests', name, ...rest].map(String).join(' ');
}
