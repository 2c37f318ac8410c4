import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { findPipeline, loadPipelines } from '../../src/pipelines/pipeline-config.ts';
import { runPipeline } from '../../src/pipelines/run-pipeline.ts';
import { makeHome } from '../helpers/home.ts';

describe('a first run before any file has landed', () => {
  let wh: Warehouse;
  beforeEach(async () => ({ wh } = await makeHome()));
  afterEach(async () => wh.close());

  it('creates the keyed staging tables and succeeds with empty catalog tables', async () => {
    const run = await runPipeline(wh, findPipeline(loadPipelines(), 'profit'), {
      now: new Date('2026-11-20T09:30:00Z'),
    });
    expect(run.windows.filter((w) => w.status !== 'success').map((w) => `${w.table}: ${w.error}`)).toEqual([]);
    expect(run.status).toBe('success');
    const count = await wh.sql.runAndReadAll('select count(*)::integer from staging.stg_mkt__order_items');
    expect(count.getRowsJson()).toEqual([[0]]);
  });
});
