import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scheduleVacuum } from '../../src/db/vacuum.ts';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { loadPipelines } from '../../src/pipelines/pipeline-config.ts';
import { runPipeline } from '../../src/pipelines/run-pipeline.ts';
import { makeHome, rows } from '../helpers/home.ts';

const at = (iso: string) => new Date(iso);
const vacuumTasks = async (wh: Warehouse) =>
  (await rows(wh, `select current_setting('max_vacuum_tasks')::integer as n`))[0]!.n;
// Row groups of 122,880 rows: 300,000 rows fill two and part of a third.
const rowGroups = async (wh: Warehouse) =>
  (await rows(wh, `select count(distinct row_group_id)::integer as n from pragma_storage_info('raw.vacuumed')`))[0]!.n;

describe('scheduleVacuum: pipeline runs checkpoint with vacuum one day a week', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => {
    await wh.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('vacuums on the first run and the day after it, then not before seven days of the run clock, and when the clock went back', async () => {
    // DuckDB's default is 100 tasks a checkpoint; 0 turns vacuum off.
    expect(await scheduleVacuum(wh, at('2026-11-01T06:00:00Z'))).toBe(true);
    expect(await vacuumTasks(wh)).toBe(100);
    // The other runs of that vacuum day vacuum too, and do not move it.
    expect(await scheduleVacuum(wh, at('2026-11-02T05:59:59Z'))).toBe(true);
    expect(await vacuumTasks(wh)).toBe(100);
    expect(await scheduleVacuum(wh, at('2026-11-02T06:00:00Z'))).toBe(false);
    expect(await vacuumTasks(wh)).toBe(0);
    expect(await scheduleVacuum(wh, at('2026-11-08T05:59:59Z'))).toBe(false);
    expect(await scheduleVacuum(wh, at('2026-11-08T06:00:00Z'))).toBe(true);
    expect(await vacuumTasks(wh)).toBe(100);
    expect(await rows(wh, `select value from control.settings where name = 'last_vacuum_at'`)).toEqual([
      { value: '2026-11-08T06:00:00.000Z' },
    ]);
    expect(await scheduleVacuum(wh, at('2026-11-07T06:00:00Z'))).toBe(true);
  });

  // A batch runs every pipeline, then publishes and closes: the checkpoints after its last run must still vacuum.
  it('leaves vacuum on after every pipeline of a batch on a vacuum day, and off after those of the next day', async () => {
    const pipelines = loadPipelines().slice(0, 2);
    for (const pipeline of pipelines)
      expect((await runPipeline(wh, pipeline, { now: at('2026-11-01T06:00:00Z'), deferPublish: true })).status).toBe(
        'success',
      );
    expect(await vacuumTasks(wh)).toBe(100);
    for (const pipeline of pipelines)
      await runPipeline(wh, pipeline, { now: at('2026-11-02T07:00:00Z'), deferPublish: true });
    expect(await vacuumTasks(wh)).toBe(0);
  });

  it('keeps the row groups a delete left part empty until a checkpoint that vacuums merges them', async () => {
    await wh.sql.run(`create table raw.vacuumed as select range as i from range(300000)`);
    await wh.sql.run('checkpoint');
    expect(await rowGroups(wh)).toBe(3);
    // Nine rows in ten deleted: the 30,000 left fit one row group.
    await scheduleVacuum(wh, at('2026-11-01T06:00:00Z'));
    await scheduleVacuum(wh, at('2026-11-03T06:00:00Z'));
    await wh.sql.run(`delete from raw.vacuumed where i % 10 <> 0`);
    await wh.sql.run('checkpoint');
    expect(await rowGroups(wh)).toBe(3);
    await scheduleVacuum(wh, at('2026-11-08T06:00:00Z'));
    await wh.sql.run(`delete from raw.vacuumed where i = 0`);
    await wh.sql.run('checkpoint');
    expect(await rowGroups(wh)).toBe(1);
    expect(await rows(wh, `select count(*)::integer as n from raw.vacuumed`)).toEqual([{ n: 29999 }]);
  });
});
