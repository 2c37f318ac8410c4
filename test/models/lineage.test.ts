import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lineage } from '../../src/models/lineage.ts';
import { loadModels } from '../../src/models/load-models.ts';

describe('model lineage', () => {
  const models = loadModels();

  it('gives every mart a grain, and both profit tables every profit measure rule with the model where it lives', () => {
    for (const m of models.filter((x) => x.schema === 'marts')) expect(m.config.grain, m.id).toMatch(/^one row per /);
    for (const table of ['mkt_profit_by_sku_and_date', 'mkt_profit_by_date']) {
      const rules = lineage(models, table).rules;
      // Spec document 001 numbers its profit measure rules 1 to 12.
      const numbers = new Set(
        rules.flatMap(
          (r) => /Profit measure rules (\d+)(?: and (\d+))?:/.exec(r.rule)?.slice(1).filter(Boolean).map(Number) ?? [],
        ),
      );
      expect([...numbers].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    }
    const settlementMap = lineage(models, 'mkt_profit_by_date').rules.find((r) =>
      r.rule.includes('settlement amount map'),
    );
    // Read through marts.mkt_settlements_with_cogs, not directly: its lineage, not its reads.
    expect(settlementMap?.in).toBe('staging.stg_mkt__settlement_rows');
    expect(lineage(models, 'mkt_profit_by_date').reads).not.toContain('staging.stg_mkt__settlement_rows');
    expect(lineage(models, 'mkt_profit_by_date').upstream).toContain('staging.stg_mkt__settlement_rows');
  });

  it('lists what a model reads, what reads it and its checks', () => {
    const l = lineage(models, 'marts.mkt_order_items_with_cogs');
    expect(l.reads).toEqual(expect.arrayContaining(['staging.stg_mkt__order_items', 'intermediate.int_unit_costs']));
    expect(l.readBy).toEqual(expect.arrayContaining(['intermediate.int_profit_order_lines', 'marts.mkt_returns']));
    expect(l.checks).toContain('not_null(mkt_order_id)');
  });

  it('refuses a rule said to live in a model the table does not read, naming the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mktdata-lineage-'));
    mkdirSync(join(dir, 'staging'));
    mkdirSync(join(dir, 'marts'));
    writeFileSync(join(dir, 'staging', 'stg_a.sql'), 'select 1 as x');
    writeFileSync(join(dir, 'staging', 'stg_a.yml'), 'description: a\ngrain: one row\n');
    writeFileSync(join(dir, 'staging', 'stg_b.sql'), 'select 2 as x');
    writeFileSync(join(dir, 'staging', 'stg_b.yml'), 'description: b\ngrain: one row\n');
    writeFileSync(join(dir, 'marts', 'mkt_c.sql'), 'select x from staging.stg_a');
    writeFileSync(
      join(dir, 'marts', 'mkt_c.yml'),
      'description: c\ngrain: one row\nrules:\n  - {rule: "rule 1", in: staging.stg_b}\n',
    );
    expect(() => loadModels(dir)).toThrow(
      /mkt_c\.yml rules: "rule 1" lives in staging\.stg_b, which marts\.mkt_c does not read/,
    );
  });

  it('counts the models a macro reads as read by the models that call it, and orders the build by them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mktdata-macro-reads-'));
    for (const schema of ['intermediate', 'marts']) mkdirSync(join(dir, schema));
    // `a_dated` calls `costed`, which reads intermediate.z_costs; the comment names z_other, which no macro reads.
    writeFileSync(
      join(dir, 'macros.sql'),
      [
        '-- reads intermediate.z_other in a comment only',
        'create or replace macro costed(t) as table select * from query_table(t) join intermediate.z_costs using (x);',
        'create or replace macro dated(t) as table select * from costed(t);',
        'create or replace macro unused(t) as table select * from intermediate.z_other;',
      ].join('\n'),
    );
    const model = (path: string, sql: string) => {
      writeFileSync(join(dir, `${path}.sql`), sql);
      writeFileSync(join(dir, `${path}.yml`), 'description: m\ngrain: one row\n');
    };
    model('intermediate/z_costs', 'select 1 as x');
    model('intermediate/z_other', 'select 1 as x');
    model('marts/a_dated', 'with t as (select 1 as x) select * from dated(t)');
    const models = loadModels(dir);
    expect(lineage(models, 'marts.a_dated').reads).toEqual(['intermediate.z_costs']);
    expect(models.map((m) => m.id).indexOf('intermediate.z_costs')).toBeLessThan(
      models.map((m) => m.id).indexOf('marts.a_dated'),
    );
  });

  it('refuses a keyed model that does not read its input, or reads a model not keyed on its raw table, naming the file', () => {
    const project = (settlementsSql: string, rowsIncrement: string, totalsExtra = '') => {
      const dir = mkdtempSync(join(tmpdir(), 'mktdata-keyed-'));
      mkdirSync(join(dir, 'staging'));
      const keyed = (raw: string, key: string, extra = '') =>
        `description: k\ngrain: one row\nmaterialized: incremental\nincrement:\n  raw: ${raw}\n  raw_key: [_connection_id, settlement_id]\n  key: [connection_id, ${key}]\n${extra}`;
      writeFileSync(
        join(dir, 'staging', 'stg_rows.sql'),
        'select _connection_id as connection_id, settlement_id from raw.settlements',
      );
      writeFileSync(
        join(dir, 'staging', 'stg_rows.yml'),
        rowsIncrement ? keyed(rowsIncrement, 'settlement_id') : 'description: r\ngrain: one row\n',
      );
      writeFileSync(join(dir, 'staging', 'stg_totals.sql'), settlementsSql);
      writeFileSync(
        join(dir, 'staging', 'stg_totals.yml'),
        keyed(
          'raw.settlements',
          'settlement_id',
          `  reads: staging.stg_rows\n  reads_key: [connection_id, settlement_id]\n${totalsExtra}`,
        ),
      );
      return dir;
    };
    const reading = 'select connection_id, settlement_id, count(*) as n from staging.stg_rows group by all';
    expect(loadModels(project(reading, 'raw.settlements')).map((m) => m.id)).toEqual([
      'staging.stg_rows',
      'staging.stg_totals',
    ]);
    expect(() => loadModels(project('select 1 as connection_id, 2 as settlement_id', 'raw.settlements'))).toThrow(
      /stg_totals\.yml increment: staging\.stg_totals does not read staging\.stg_rows/,
    );
    // `since` bounds the raw table's scan: a model reading another model has none to bound.
    expect(() =>
      loadModels(project(reading, 'raw.settlements', '  since: {raw: posted_date, column: posted_at}\n')),
    ).toThrow(/stg_totals\.yml increment: since bounds the raw table/);
    expect(() => loadModels(project(reading, ''))).toThrow(
      /stg_totals\.yml increment: reads staging\.stg_rows, which is not a model keyed on raw\.settlements by \(connection_id, settlement_id\)/,
    );
  });

  it('refuses a model that follows what is not a windowed catalog table, naming the file', () => {
    const project = (schema: string, follows: string) => {
      const dir = mkdtempSync(join(tmpdir(), 'mktdata-follows-'));
      mkdirSync(join(dir, schema));
      writeFileSync(join(dir, schema, 'z_follower.sql'), 'select 1 as connection_id, current_date as date');
      writeFileSync(
        join(dir, schema, 'z_follower.yml'),
        `description: f\ngrain: one row\nmaterialized: incremental\nwindow: {date_column: date, connection_column: connection_id, follows: ${follows}}\n`,
      );
      return dir;
    };
    expect(() => loadModels(project('intermediate', 'mkt_nope'))).toThrow(
      /z_follower\.yml window\.follows: mkt_nope is not a windowed catalog table/,
    );
    expect(() => loadModels(project('marts', 'mkt_nope'))).toThrow(
      /z_follower\.yml window\.follows: a mart has windows of its own/,
    );
  });

  it('is printed by `mktdata docs`', () => {
    const out = execFileSync('node', ['bin/mktdata.js', 'docs', 'mkt_profit_by_date'], { encoding: 'utf8' });
    expect(out).toMatch(/^marts\.mkt_profit_by_date \(incremental\)\ngrain: one row per /);
    expect(out).toContain(
      '001 Profit measure rules 11: profit, total_cost, acos, tacos, roi  → marts.mkt_profit_by_date',
    );
    const json = JSON.parse(
      execFileSync('node', ['bin/mktdata.js', 'docs', '--format', 'json'], { encoding: 'utf8' }),
    ) as { id: string }[];
    expect(json.map((m) => m.id)).toEqual(models.map((m) => m.id));
    const unknown = spawnSync('node', ['bin/mktdata.js', 'docs', 'mkt_nope'], { encoding: 'utf8' });
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('unknown model mkt_nope');
  });
});
