import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { makeHome, rows } from '../helpers/home.ts';
import { cli } from '../helpers/home.ts';

describe('warehouse', () => {
  it('refuses a second writer with a message naming the holder', async () => {
    const { wh, home } = await makeHome();
    await wh.close();
    // A writer in another process holds the home while `mktdata build` tries to open it.
    const holder = spawn('node', ['bin/run-ts.js', 'test/helpers/hold-home.ts', home.root]);
    await new Promise<void>((done) => holder.stdout.on('data', () => done()));
    const result = await cli(['build', '--home', home.root]);
    holder.kill();
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(
        `home ${home.root} is being written by another process \\(\`mktdata hold\`, pid ${holder.pid}, since .+\\)`,
      ),
    );
  });

  it('creates the schemas and the control plane through versioned migrations', async () => {
    const { wh } = await makeHome();
    const schemas = await rows(
      wh,
      `select schema_name from information_schema.schemata where catalog_name = current_database() order by 1`,
    );
    expect(schemas.map((s) => s.schema_name)).toEqual(
      expect.arrayContaining(['control', 'intermediate', 'marts', 'raw', 'staging']),
    );
    expect(await rows(wh, `select name from kysely_migration order by name`)).toEqual([
      { name: '001-control-plane' },
      { name: '002-invitations' },
      { name: '003-exports' },
      { name: '004-pipelines' },
      { name: '005-publish-changes' },
      { name: '006-connectors' },
      { name: '007-cogs-changes' },
      { name: '008-vendor-codes-and-sqp' },
      { name: '009-data-files' },
      { name: '010-webhooks' },
      { name: '011-actions' },
      { name: '012-export-leases' },
      { name: '013-schedule-firings' },
      { name: '014-rate-buckets' },
      { name: '015-shard-leases' },
      { name: '016-workers' },
      { name: '017-model-inputs' },
      { name: '018-run-errors-and-unmetered' },
      { name: '019-model-sql' },
    ]);
    await wh.close();
  });
});
