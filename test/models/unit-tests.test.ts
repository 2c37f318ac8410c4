// The unit tests of the models' `.yml` (`unit_tests`): each its own case, run on its given rows in memory, without
// building the graph. Their expected rows are worked out by hand in the `.yml`, beside the rows.
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
