// Issue 58 item 4, "Upgrade test": the committed home of the last release (fixtures/upgrade/, made by
// scripts/make-upgrade-home.ts) opens with the code under test: the migrations run forward, each once, and the home
// records this version; the first pipeline run rebuilds whole exactly the models whose SQL changed since, worked out
// from the files' SHA-256 against the fixture's list and the rule of src/models/model-inputs.ts `lineageDigest`:
//   a model is rebuilt whole when its own SQL (a seed's rows), the SQL of any model upstream of it, or
//   models/macros.sql changed since its last build
// (helpers/upgrade-fixture.ts `modelsToRebuild`); every table then equals a fresh build of the same documents. The
// fixture is made by this release, so nothing changed: a copy of models/ with one mart edited proves the rule, with
// a reader of the published file seeing the old snapshot or the new one throughout. A home recorded by a newer
// mktdata is refused, naming both versions, its file unchanged byte for byte.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { openWarehouse, type Warehouse } from '../../src/db/warehouse.ts';
import type { Home } from '../../src/home.ts';
import type { ModelResult } from '../../src/models/run-models.ts';
import { loadPipelines } from '../../src/pipelines/pipeline-config.ts';
import { publishDeferred, runPipeline, type RunSummary } from '../../src/pipelines/run-pipeline.ts';
import { homeFor } from '../helpers/arrival-order.ts';
import { compareHomes } from '../helpers/compare-homes.ts';
import { rows } from '../helpers/home.ts';
import {
  currentVersion,
  duck,
  fixtureDocuments,
  manifest,
  modelsToRebuild,
  repo,
  sha256,
  unpackHome,
} from '../helpers/upgrade-fixture.ts';

/** The first run after the upgrade: ten days after the fixture's last run (its routine windows leave out older dates). */
const NOW = new Date(new Date(manifest.runs.at(-1)!).getTime() + 10 * 86_400_000);
const projectModels = join(repo, 'models');
const EDITED = 'marts.mkt_profit_by_sku_and_date';

/** Every pipeline run at NOW, published once as `mktdata run` does; what each model did. */
async function runAll(wh: Warehouse, modelsDir: string) {
  const results: ModelResult[] = [];
  const summaries: RunSummary[] = [];
  for (const pipeline of loadPipelines())
    summaries.push(
      await runPipeline(wh, pipeline, { now: NOW, deferPublish: true, modelsDir, onResult: (r) => results.push(r) }),
    );
  await publishDeferred(wh, summaries);
  return { results, windows: summaries.flatMap((s) => s.windows) };
}

/** A fresh home with the fixture's documents, dropped in landing/ and run once at NOW with these models. */
async function freshBuild(from: Home, modelsDir: string): Promise<Home> {
  const documents = fixtureDocuments(from);
  const wh = await homeFor(documents, 'mktdata-upgrade-fresh-');
  for (const d of documents) {
    mkdirSync(join(wh.home.landing, d.connection.id, d.source), { recursive: true });
    cpSync(d.file, join(wh.home.landing, d.connection.id, d.source, d.name));
  }
  await runAll(wh, modelsDir);
  await wh.close();
  return wh.home;
}

let fresh: Promise<Home> | undefined;
/** The fresh build with the project's models, made once for the tests that compare with it. */
const freshOnce = (from: Home) => (fresh ??= freshBuild(from, projectModels));

/** The edited table of the upgraded home against the fresh one's, its product_brand set back to null. */
async function editedAgainst(upgraded: Home, fresh: Home) {
  const instance = await DuckDBInstance.create(':memory:');
  const sql = await instance.connect();
  try {
    await sql.run(`attach '${upgraded.published}' as u (read_only); attach '${fresh.published}' as f (read_only)`);
    const set = `select * replace (null::varchar as product_brand) from u.mkt_profit_by_sku_and_date`;
    const count = async (query: string) => Number((await sql.runAndReadAll(query)).getRowsJson()[0]![0]);
    return {
      onlyUpgraded: await count(`select count(*) from (${set} except all select * from f.mkt_profit_by_sku_and_date)`),
      onlyFresh: await count(`select count(*) from (select * from f.mkt_profit_by_sku_and_date except all ${set})`),
      notEdited: await count(
        `select count(*) from u.mkt_profit_by_sku_and_date where product_brand is distinct from 'edited'`,
      ),
    };
  } finally {
    sql.closeSync();
    instance.closeSync();
  }
}

/** The published tables of two homes that differ (except all, both ways): none when they are equal. */
async function differences(a: Home, b: Home) {
  const compared = await compareHomes(a, b);
  expect(compared.length).toBeGreaterThan(20);
  return compared.filter((t) => t.onlyA > 0 || t.onlyB > 0);
}

/** The models a run rebuilt whole because their SQL changed. */
const sqlChanged = (results: ModelResult[]) => new Set(results.filter((r) => r.sqlChanged).map((r) => r.model));

describe(`a home made by mktdata ${manifest.version}`, () => {
  it('migrates forward once, records this version, rebuilds what changed and equals a fresh build', async () => {
    const home = unpackHome();
    const before = (await duck(home.warehouse, `select name from kysely_migration`)).map((r) => r.name);
    const wh = await openWarehouse(home, 'test');
    const after = await rows(wh, `select name, count(*)::int as times from kysely_migration group by name`);
    // Each migration is there once, those the fixture ran among them (and the ones added since).
    expect(after.filter((r) => r.times !== 1)).toEqual([]);
    expect(after.map((r) => r.name)).toEqual(expect.arrayContaining(before));
    expect(await rows(wh, `select value from control.settings where name = 'mktdata_version'`)).toEqual([
      { value: currentVersion },
    ]);

    const expected = modelsToRebuild(projectModels);
    const { results } = await runAll(wh, projectModels);
    const ran = new Set(results.map((r) => r.model));
    expect(results.filter((r) => r.status !== 'success')).toEqual([]);
    expect(ran.has(EDITED)).toBe(true);
    expect(sqlChanged(results)).toEqual(new Set([...expected].filter((id) => ran.has(id))));
    await wh.close();
    expect(await differences(home, await freshOnce(home))).toEqual([]);
  });

  it('rebuilds whole a model whose SQL changed, and the models reading it, while readers see one snapshot', async () => {
    const home = unpackHome();
    // The copy of models/ with one column of one mart edited: every row of it shows it once rebuilt.
    const models = join(mkdtempSync(join(tmpdir(), 'mktdata-upgrade-models-')), 'models');
    cpSync(projectModels, models, { recursive: true });
    const file = join(models, 'marts/mkt_profit_by_sku_and_date.sql');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace(`null::varchar as product_brand`, `'edited'::varchar as product_brand`));
    expect(readFileSync(file, 'utf8')).not.toBe(original);
    // Worked out by hand: the edited mart, and mkt_profit_by_date, which reads it (its margins); nothing else does.
    const expected = new Set([EDITED, 'marts.mkt_profit_by_date']);
    expect(modelsToRebuild(models)).toEqual(expected);

    const wh = await openWarehouse(home, 'test');
    const reads = readSnapshots(home);
    const { results, windows } = await runAll(wh, models);
    const seen = await reads.stop();
    await wh.close();
    expect(sqlChanged(results)).toEqual(expected);
    // Whole: its rows of dates before every window the run planned for it show the edit too.
    const planned = windows.filter((w) => w.table === 'mkt_profit_by_sku_and_date' && w.from !== null);
    const earliest = planned.map((w) => w.from!).sort()[0]!;
    const [older] = await duck(
      home.published,
      `select count(*)::int as rows, count(*) filter (product_brand = 'edited')::int as edited
       from mkt_profit_by_sku_and_date where date < '${earliest}'`,
    );
    expect(older!.rows).toBeGreaterThan(0);
    expect(older!.edited).toBe(older!.rows);
    // A reader saw the snapshot before the run (no row edited) or after it (every row), never a mix.
    expect(seen.length).toBeGreaterThan(1);
    for (const s of seen) expect([0, s.rows]).toContain(s.edited);
    expect(seen[0]!.edited).toBe(0);
    // A fresh build with the edited mart is the project's fresh build with product_brand 'edited' (no model reads
    // that column): every table equals it, the edited one with the column set back.
    const fresh = await freshOnce(home);
    expect((await differences(home, fresh)).map((t) => t.table)).toEqual(['mkt_profit_by_sku_and_date']);
    expect(await editedAgainst(home, fresh)).toEqual({ onlyUpgraded: 0, onlyFresh: 0, notEdited: 0 });
  });

  it('rebuilds every model whole once in a home that kept no SQL digests (made by 0.1.0)', async () => {
    const home = unpackHome();
    await duck(home.warehouse, `delete from control.model_sql`, true);
    const wh = await openWarehouse(home, 'test');
    const first = await runAll(wh, projectModels);
    // Every model the run built had its table already, and no digest: each rebuilt whole the first time a pipeline
    // ran it (a model several pipelines run, a seed, is of this SQL when the next one does).
    expect(first.results.filter((r) => r.status !== 'success')).toEqual([]);
    const firstBuilds = new Map([...first.results].reverse().map((r) => [r.model, r]));
    expect([...firstBuilds.values()].filter((r) => !r.sqlChanged).map((r) => r.model)).toEqual([]);
    const again = await runAll(wh, projectModels);
    await wh.close();
    expect(sqlChanged(again.results)).toEqual(new Set());
    expect(await differences(home, await freshOnce(home))).toEqual([]);
  });

  it('refuses a home recorded by a newer mktdata, naming both versions, and writes nothing', async () => {
    const home = unpackHome();
    await duck(home.warehouse, `update control.settings set value = '99.0.0' where name = 'mktdata_version'`, true);
    const bytes = sha256(home.warehouse);
    const refusal = await openWarehouse(home, 'test').then(
      () => null,
      (error: Error & { code?: string }) => error,
    );
    expect(refusal?.code).toBe('ERR_HOME_NEWER');
    expect(refusal?.message).toContain(`last opened by mktdata 99.0.0; this is mktdata ${currentVersion}`);
    expect(refusal?.message).toContain('install mktdata 99.0.0 or newer');
    expect(sha256(home.warehouse)).toBe(bytes);
    expect(existsSync(home.writerFile)).toBe(false);

    // A migration this version does not know (the recorded version set back): refused the same way, naming it.
    await duck(
      home.warehouse,
      `update control.settings set value = '${currentVersion}' where name = 'mktdata_version'`,
      true,
    );
    await duck(home.warehouse, `insert into kysely_migration values ('999-from-the-future', '2099-01-01')`, true);
    const unknown = sha256(home.warehouse);
    await expect(openWarehouse(home, 'test')).rejects.toThrow(/migration 999-from-the-future, which this version/);
    expect(sha256(home.warehouse)).toBe(unknown);
  });
});

/**
 * A reader opening the published file again and again (as any DuckDB client would) until stopped: per read, the
 * profit by SKU table's rows and its edited ones.
 */
function readSnapshots(home: Home) {
  const seen: { rows: number; edited: number }[] = [];
  let stopped = false;
  const reading = (async () => {
    while (!stopped) {
      const instance = await DuckDBInstance.create(home.published, { access_mode: 'READ_ONLY' });
      const sql = await instance.connect();
      const reader = await sql.runAndReadAll(
        `select count(*)::int, count(*) filter (product_brand = 'edited')::int from mkt_profit_by_sku_and_date`,
      );
      const [rows, edited] = reader.getRowsJson()[0] as [number, number];
      seen.push({ rows, edited });
      sql.closeSync();
      instance.closeSync();
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await reading;
      return seen;
    },
  };
}
