// The unit tests of the models' `.yml` (`unit_tests`): each its own case, run on its given rows in memory, without
// building the graph. Their expected rows are worked out by hand in the `.yml`, beside the rows.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadModels } from '../../src/models/load-models.ts';
import { runUnitTest, TableShapes, unitTestsOf } from '../../src/models/unit-tests.ts';

const models = loadModels();
const shapes = new TableShapes(models);

describe('model unit tests', () => {
  afterAll(() => shapes.close());

  it('are found in the models', () => {
    expect(unitTestsOf(models).length).toBeGreaterThan(0);
  });

  for (const { model, test } of unitTestsOf(models)) {
    it(`${model.id}: ${test.name}`, async () => {
      const { failure } = await runUnitTest(model, test, shapes);
      if (failure) expect.fail(failure);
    });
  }
});

/** A models folder with one model reading staging.stg_a, whose `.yml` ends with `tests`. */
function modelsWith(tests: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'mktdata-unit-'));
  mkdirSync(join(dir, 'staging'));
  writeFileSync(join(dir, 'staging/stg_a.sql'), `select 1::decimal(18,4) as amount`);
  writeFileSync(join(dir, 'staging/stg_a.yml'), `description: a\ngrain: one row\n`);
  writeFileSync(join(dir, 'staging/stg_b.sql'), `select amount * 2 as twice from staging.stg_a`);
  writeFileSync(join(dir, 'staging/stg_b.yml'), `description: b\ngrain: one row\nunit_tests:\n${tests}`);
  return dir;
}

describe('a model unit test', () => {
  it('is refused, naming its file and name, when it gives a table the SQL does not read', () => {
    const dir = modelsWith(`  - {name: doubles, given: [{input: staging.stg_c, rows: []}], expect: {rows: []}}\n`);
    expect(() => loadModels(dir)).toThrow(/stg_b\.yml unit_tests doubles given.*does not read staging\.stg_c/);
  });

  it('is refused, naming its file and name, when a row is malformed', () => {
    const dir = modelsWith(`  - {name: doubles, given: [{input: staging.stg_a, rows: [{Amount: 1}]}], expect: {rows: []}}\n`);
    expect(() => loadModels(dir)).toThrow(/stg_b\.yml unit_tests doubles given 0 rows 0 Amount/);
  });

  it('fails with the rows that differ, compared exactly on the columns named', async () => {
    // 1.25 × 2 = 2.5 given by the model; 2.5 expected passes, 2.4999 fails.
    const dir = modelsWith(
      `  - {name: doubles, given: [{input: staging.stg_a, rows: [{amount: 1.25}]}], expect: {rows: [{twice: 2.5}]}}\n` +
        `  - {name: wrong, given: [{input: staging.stg_a, rows: [{amount: 1.25}]}], expect: {rows: [{twice: 2.4999}]}}\n`,
    );
    const local = loadModels(dir);
    const own = new TableShapes(local, dir);
    try {
      const [passing, failing] = unitTestsOf(local);
      expect((await runUnitTest(passing!.model, passing!.test, own, dir)).failure).toBeUndefined();
      expect((await runUnitTest(failing!.model, failing!.test, own, dir)).failure).toBe(
        'staging.stg_b unit test wrong: rows differ (- expected, + given by the model)\n' +
          '  | twice \n' +
          '- | 2.4999\n' +
          '+ | 2.5   ',
      );
    } finally {
      await own.close();
    }
  });
});
