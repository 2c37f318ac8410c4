import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { compileChecks } from '../../src/models/compile-checks.ts';
import type { Model } from '../../src/models/load-models.ts';
import { DE, makeHome, rows, US } from '../helpers/home.ts';

/** A model whose `.yml` holds one check of each kind. */
const model = {
  id: 'marts.t',
  config: {
    columns: [
      { name: 'id', checks: ['not_null', 'unique'] },
      { name: 'status', checks: [{ accepted_values: { values: ['Shipped', 'Pending'], severity: 'warn' } }] },
      {
        name: 'marketplace_id',
        checks: [{ relationships: { to: 'seeds.m', field: 'marketplace_id', severity: 'error' } }],
      },
      { name: 'quantity', checks: [{ expression: { sql: 'quantity >= 0', severity: 'error' } }] },
    ],
    checks: [
      { unique: { columns: ['marketplace_id', 'status'], severity: 'error' } },
      { expression: { sql: 'quantity < 100', severity: 'warn', description: 'quantities are small' } },
    ],
  },
} as unknown as Model;

describe('compileChecks', () => {
  let wh: Warehouse;
  beforeEach(async () => ({ wh } = await makeHome()));
  afterEach(async () => wh.close());

  it('compiles every kind of check to a query returning exactly the bad rows', async () => {
    await wh.sql.run(`create table seeds.m as select 'US' as marketplace_id`);
    await wh.sql.run(`create table marts.t as from (values
      (1, 'Shipped', 'US', 1),
      (1, 'Pending', 'US', 2),     -- id repeated
      (null, 'Lost', 'XX', -1),    -- id null, status not accepted, unknown marketplace, negative quantity
      (4, null, 'US', 500)         -- quantity not small; null status passes accepted_values
    ) v(id, status, marketplace_id, quantity)`);
    const checks = compileChecks(model, 'marts.t');
    const counts: Record<string, number> = {};
    for (const check of checks)
      counts[`${check.severity} ${check.name}`] = (await rows(wh, `select * from (${check.sql})`)).length;
    expect(counts).toEqual({
      'error id not_null': 1,
      'error id unique': 1, // one duplicated value
      'warn status accepted_values': 1,
      'error marketplace_id relationships seeds.m.marketplace_id': 1,
      'error quantity expression quantity >= 0': 1,
      'error unique (marketplace_id, status)': 0,
      'warn quantities are small': 1,
    });
  });
});

describe('runModels with a failing check', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  it('keeps the old rows of the failing model and skips its dependants', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { runModels } = await import('../../src/models/run-models.ts');
    const models = join(dir, 'models');
    mkdirSync(join(models, 'staging'), { recursive: true });
    mkdirSync(join(models, 'intermediate'), { recursive: true });
    writeFileSync(
      join(models, 'staging', 'stg_numbers.sql'),
      '-- Numbers: one row per n.\nselect n from raw.numbers\n',
    );
    writeFileSync(
      join(models, 'staging', 'stg_numbers.yml'),
      'description: numbers\ngrain: one row per n\ncolumns:\n  - name: n\n    type: NUMBER\n    checks: [{expression: {sql: n > 0}}]\n',
    );
    writeFileSync(
      join(models, 'intermediate', 'int_numbers_doubled.sql'),
      '-- Doubled numbers: one row per n.\nselect n * 2 as n from staging.stg_numbers\n',
    );
    writeFileSync(
      join(models, 'intermediate', 'int_numbers_doubled.yml'),
      'description: doubled\ngrain: one row per n\n',
    );
    await wh.sql.run('create table raw.numbers as select 1 as n union all select 2');
    expect((await runModels(wh, { modelsDir: models })).map((r) => [r.status, r.error])).toEqual([
      ['success', undefined],
      ['success', undefined],
    ]);

    await wh.sql.run('insert into raw.numbers values (-5)');
    const results = await runModels(wh, { modelsDir: models });
    expect(results).toMatchObject([
      {
        model: 'staging.stg_numbers',
        status: 'error',
        findings: [{ name: 'n expression n > 0', severity: 'error', badRows: 1 }],
      },
      { model: 'intermediate.int_numbers_doubled', status: 'skipped', error: 'staging.stg_numbers did not succeed' },
    ]);
    expect(await rows(wh, 'select n from staging.stg_numbers order by n')).toEqual([{ n: 1 }, { n: 2 }]);
    expect(await rows(wh, 'select n from intermediate.int_numbers_doubled order by n')).toEqual([{ n: 2 }, { n: 4 }]);
  });
});

describe('runModels on an incremental window', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  /**
   * An incremental model of raw.numbers (connection, date, n) whose n must be positive, and one reading it; `list`
   * writes their SQL for a list of connections a statement (`in $connection_ids`) rather than one (`= $connection_id`).
   */
  async function numbersModel(list = false) {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const models = join(dir, 'models');
    const connections = list ? 'in $connection_ids' : '= $connection_id';
    mkdirSync(join(models, 'marts'), { recursive: true });
    const write = (name: string, from: string, n: string, check = '') => {
      writeFileSync(
        join(models, 'marts', `${name}.sql`),
        [
          '-- Numbers: one row per connection and date.',
          `select seller_or_vendor_id, date, ${n} as n from ${from}`,
          `where seller_or_vendor_id ${connections} and date between $from::date and $to::date`,
        ].join('\n'),
      );
      writeFileSync(
        join(models, 'marts', `${name}.yml`),
        [
          'description: numbers',
          'grain: one row per seller_or_vendor_id and date',
          'materialized: incremental',
          'window: {date_column: date, connection_column: seller_or_vendor_id}',
          'columns:',
          '  - {name: seller_or_vendor_id, type: TEXT}',
          '  - {name: date, type: DATE}',
          `  - {name: n, type: NUMBER${check}}`,
        ].join('\n'),
      );
    };
    write(
      'mkt_numbers',
      '(select connection_id as seller_or_vendor_id, * from raw.numbers)',
      'n',
      ', checks: [{expression: {sql: n > 0}}]',
    );
    write('mkt_numbers_doubled', 'marts.mkt_numbers', '2 * n');
    await wh.sql.run(`create table raw.numbers as select * from (values
      ('${US.id}', date '2026-03-01', 1), ('${US.id}', date '2026-03-02', 2),
      ('${DE.id}', date '2026-03-01', 3), ('${DE.id}', date '2026-03-02', 4)
    ) v(connection_id, date, n)`);
    const { runModels } = await import('../../src/models/run-models.ts');
    expect((await runModels(wh, { modelsDir: models })).map((r) => [r.status, r.error])).toEqual([
      ['success', undefined],
      ['success', undefined],
    ]);
    return (options: { from: string; to: string }) => runModels(wh, { modelsDir: models, ...options });
  }

  const numbers = (table = 'mkt_numbers') =>
    rows(wh, `select seller_or_vendor_id, date::varchar as date, n::integer as n from marts.${table} order by 1, 2`);

  for (const list of [false, true]) {
    it(`keeps the old rows of a connection whose window fails a check, and builds the others (${list ? 'connections in one statement' : 'a statement per connection'})`, async () => {
      const runWindow = await numbersModel(list);
      await wh.sql.run(`update raw.numbers set n = n * 10`);
      await wh.sql.run(`update raw.numbers set n = -1 where connection_id = '${DE.id}' and date = '2026-03-02'`);
      const results = await runWindow({ from: '2026-03-02', to: '2026-03-02' });
      expect(results).toMatchObject([
        {
          model: 'marts.mkt_numbers',
          status: 'error',
          findings: [{ name: 'n expression n > 0', badRows: 1 }],
          unbuilt: [{ connectionId: DE.id, status: 'error' }],
          windows: [{ connectionId: US.id, from: '2026-03-02', to: '2026-03-02', rows: 1 }],
        },
        // The model reading it builds US's new rows and leaves DE's alone.
        {
          model: 'marts.mkt_numbers_doubled',
          status: 'success',
          unbuilt: [{ connectionId: DE.id, status: 'skipped' }],
        },
      ]);
      // US's 2026-03-02 is 2 * 10 = 20 now; DE keeps 3 and 4 (and 6 and 8 doubled).
      expect(await numbers()).toEqual([
        { seller_or_vendor_id: US.id, date: '2026-03-01', n: 1 },
        { seller_or_vendor_id: US.id, date: '2026-03-02', n: 20 },
        { seller_or_vendor_id: DE.id, date: '2026-03-01', n: 3 },
        { seller_or_vendor_id: DE.id, date: '2026-03-02', n: 4 },
      ]);
      expect((await numbers('mkt_numbers_doubled')).map((r) => r.n)).toEqual([2, 40, 6, 8]);
    });
  }

  it('keeps every old row when the window fails for every connection', async () => {
    const runWindow = await numbersModel(true);
    const before = await numbers();
    await wh.sql.run(`update raw.numbers set n = -1 where date = '2026-03-02'`);
    const results = await runWindow({ from: '2026-03-02', to: '2026-03-02' });
    expect(results).toMatchObject([
      { model: 'marts.mkt_numbers', status: 'error', findings: [{ badRows: 2 }] },
      { status: 'skipped' },
    ]);
    expect(await numbers()).toEqual(before);
  });

  it('checks only the rows it replaced', async () => {
    const runWindow = await numbersModel();
    // A bad row outside the window (as if it had been checked under an older .yml) does not fail the window.
    await wh.sql.run(
      `update marts.mkt_numbers set n = -1 where date = '2026-03-01' and seller_or_vendor_id = '${US.id}'`,
    );
    await wh.sql.run(`update raw.numbers set n = n * 10 where date = '2026-03-02'`);
    expect((await runWindow({ from: '2026-03-02', to: '2026-03-02' })).map((r) => r.status)).toEqual([
      'success',
      'success',
    ]);
    expect(await numbers()).toEqual([
      { seller_or_vendor_id: US.id, date: '2026-03-01', n: -1 },
      { seller_or_vendor_id: US.id, date: '2026-03-02', n: 20 },
      { seller_or_vendor_id: DE.id, date: '2026-03-01', n: 3 },
      { seller_or_vendor_id: DE.id, date: '2026-03-02', n: 40 },
    ]);
  });
});
