// CONTRIBUTING.md "Adding a source": a new report is one folder, one registry line, one staging model and one
// pipeline entry. A copy of the project gets fixtures/add-a-source/ added that way and nothing else, and the copy's
// own CLI (run from its sources) lands a Reserved Inventory report, builds the staging model over it, and its fetch
// stage knows how to request the report.
import { DuckDBInstance } from '@duckdb/node-api';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../..', import.meta.url));
const fixture = join(repo, 'fixtures/add-a-source');
const SOURCE = 'GET_RESERVED_INVENTORY_DATA';

/** Every file under `dir`, relative to it. */
function files(dir: string, under = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path, under) : [relative(under, path)];
  });
}

/** A copy of the project's code, models and pipelines, with the fixture added as CONTRIBUTING.md says. */
function projectWithTheNewSource(): string {
  const copy = mkdtempSync(join(tmpdir(), 'mktdata-add-a-source-'));
  for (const part of ['src', 'models', 'pipelines', 'package.json'])
    cpSync(join(repo, part), join(copy, part), { recursive: true });
  symlinkSync(join(repo, 'node_modules'), join(copy, 'node_modules'));
  // 1. The source's folder; 3. its staging model.
  cpSync(join(fixture, 'src'), join(copy, 'src'), { recursive: true });
  cpSync(join(fixture, 'models'), join(copy, 'models'), { recursive: true });
  // 2. The registry line (its import, and its place in the list).
  const registry = join(copy, 'src/ingest/sources/index.ts');
  writeFileSync(
    registry,
    readFileSync(registry, 'utf8')
      .replace(/\n\n\/\*\*/, `\nimport { source as reservedInventory } from './${SOURCE}/source.ts';\n\n/**`)
      .replace(/\n\];/, '\n  reservedInventory,\n];'),
  );
  // 4. The pipeline entry: the FBA pipeline fetches it.
  const pipeline = join(copy, 'pipelines/fba.yml');
  writeFileSync(pipeline, `${readFileSync(pipeline, 'utf8')}  ${SOURCE}:\n`);
  return copy;
}

describe('adding a source', () => {
  it('takes its folder, a registry line, a staging model and a pipeline entry, and nothing else', async () => {
    const copy = projectWithTheNewSource();

    // What differs from the project: the added files, and one line or two in the two files edited.
    const changed: string[] = [];
    for (const part of ['src', 'models', 'pipelines'])
      for (const file of files(join(copy, part))) {
        const original = join(repo, part, file);
        let before = '';
        try {
          before = readFileSync(original, 'utf8');
        } catch {
          changed.push(`added ${part}/${file}`);
          continue;
        }
        const after = readFileSync(join(copy, part, file), 'utf8');
        if (after === before) continue;
        const added = after.split('\n').filter((line) => !before.split('\n').includes(line));
        changed.push(`${part}/${file} +${added.length}`);
      }
    expect(changed.sort()).toEqual([
      `added models/staging/stg_mkt__fba_reserved_inventory.sql`,
      `added models/staging/stg_mkt__fba_reserved_inventory.yml`,
      `added src/ingest/sources/${SOURCE}/format.ts`,
      `added src/ingest/sources/${SOURCE}/source.ts`,
      'pipelines/fba.yml +1',
      'src/ingest/sources/index.ts +2',
    ]);

    // The copy's own CLI: a home, a connection, the report landed, the staging model built.
    const home = join(copy, 'home');
    const mktdata = async (...args: string[]) =>
      (
        await run(
          process.execPath,
          [join(repo, 'bin/run-ts.js'), join(copy, 'src/cli/main.ts'), '--home', home, '-q', ...args],
          {
            cwd: copy,
            env: { ...process.env, NO_COLOR: '1' },
          },
        )
      ).stdout.trim();
    await mktdata('init');
    const org = (await mktdata('org', 'create', '--name', 'Outdoor Co')).split('\n').pop()!;
    const connection = '00000000-0000-4000-8000-0000000000a1';
    await mktdata(
      'connections',
      'add',
      '--org',
      org,
      '--name',
      'US',
      '--marketplace',
      'ATVPDKIKX0DER',
      '--id',
      connection,
    );
    const report = join(copy, `${SOURCE}.txt`);
    cpSync(join(fixture, `${SOURCE}.txt`), report);
    expect(await mktdata('ingest', '--source', SOURCE, '--connection', connection, report)).toMatch(/\b2 rows?\b/);
    await mktdata('build', '--select', 'stg_mkt__fba_reserved_inventory');

    const db = await (
      await DuckDBInstance.create(join(home, 'warehouse.duckdb'), { access_mode: 'READ_ONLY' })
    ).connect();
    const rows = (
      await db.runAndReadAll(
        `select sku, reserved_quantity::int as q, reserved_for_customer_orders::int as c,
                reserved_for_transfers::int as t, reserved_for_processing::int as p
         from staging.stg_mkt__fba_reserved_inventory order by sku`,
      )
    ).getRowObjectsJson();
    db.closeSync();
    // The fixture's two lines as written: 7 reserved = 3 for orders + 4 in transfer + 0 processing; 2 = 2 + 0 + 0.
    expect(rows).toEqual([
      { sku: 'STOVE-MINI', q: 2, c: 2, t: 0, p: 0 },
      { sku: 'TENT-2P-GRN', q: 7, c: 3, t: 4, p: 0 },
    ]);

    // The fetch stage requests it as the folder declares, for the pipeline that lists it.
    writeFileSync(
      join(copy, 'probe.ts'),
      `import { fetchSpecs } from './src/pipelines/fetch/fetch-specs.ts';
import { loadPipelines } from './src/pipelines/pipeline-config.ts';
const fba = loadPipelines().find((p) => p.name === 'fba')!;
console.log(JSON.stringify({ spec: fetchSpecs.get('${SOURCE}'), listed: Object.keys(fba.sources).includes('${SOURCE}') }));
`,
    );
    const { stdout } = await run(process.execPath, [join(repo, 'bin/run-ts.js'), join(copy, 'probe.ts')], {
      cwd: copy,
    });
    expect(JSON.parse(stdout)).toEqual({
      spec: { kind: 'report', api: 'sp-api', reportType: SOURCE, window: 'none' },
      listed: true,
    });
  });
});
