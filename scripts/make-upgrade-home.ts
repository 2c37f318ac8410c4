// Writes the upgrade test's fixture (test/db/upgrade.test.ts, CONTRIBUTING.md "Cutting a release"): a small home made
// by this version of mktdata, `fixtures/upgrade/home-<version>.tar.gz`, and beside it `home-<version>.json`, what the test
// needs to know without trusting the code under test: the version, the instants the pipelines ran at, each document
// with its connection, source, SHA-256 and the file the home archived it as, and the SHA-256 of every model file.
// It replaces the fixture of the previous release. Run it with `npm run make-upgrade-home` when a release is cut.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mktdataVersion } from '../src/lib/version.ts';
import { modelsDir } from '../src/lib/project-paths.ts';
import { generatedDocuments, homeFor, landInRuns } from '../test/helpers/arrival-order.ts';

const repo = resolve(fileURLToPath(import.meta.url), '../..');
const fixtures = join(repo, 'fixtures/upgrade');
/** The documents cover the `days` days before this instant, as fetched then (the fake marketplace's data library). */
const asOf = new Date('2026-10-16T18:00:00Z');
const days = 2;
/** The pipelines run when the documents land, and again a day later with nothing new (a daily run). */
const runs = [asOf, new Date(asOf.getTime() + 86_400_000)];

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Every file under `dir`, relative to it, in order. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => statSync(join(dir, path)).isFile())
    .sort();
}

const documents = generatedDocuments(mkdtempSync(join(tmpdir(), 'mktdata-upgrade-docs-')), asOf, days);
const wh = await homeFor(documents, 'mktdata-upgrade-home-');
const home = wh.home;
await landInRuns(wh, [documents], runs[0]!);
for (const now of runs.slice(1)) await landInRuns(wh, [[]], now);
await wh.close();

mkdirSync(fixtures, { recursive: true });
for (const old of readdirSync(fixtures).filter((name) => name.startsWith('home-')))
  rmSync(join(fixtures, old), { recursive: true, force: true });
const name = `home-${mktdataVersion}`;
// The home as its user would leave it: the warehouse, the published snapshot and its spare, the archived documents;
// no lock file, socket, temporary or spill folder. Compressed: DuckDB files are mostly free blocks (27 MB to 400 kB).
const parts = ['warehouse.duckdb', 'published', 'landed', 'landing'];
execFileSync('tar', ['-czf', join(fixtures, `${name}.tar.gz`), '-C', home.root, ...parts]);
const target = home.root;
const archived = new Map(
  files(join(target, 'landed')).map((file) => [sha256(join(target, 'landed', file)), `landed/${file}`]),
);
const manifest = {
  version: mktdataVersion,
  runs: runs.map((at) => at.toISOString()),
  documents: documents.map((d) => ({
    connection: d.connection,
    source: d.source,
    name: basename(d.file),
    sha256: sha256(d.file),
    archived: archived.get(sha256(d.file)) ?? null,
  })),
  models: Object.fromEntries(
    files(modelsDir)
      .filter((f) => /\.(sql|csv)$/.test(f))
      .map((f) => [f, sha256(join(modelsDir, f))]),
  ),
};
writeFileSync(join(fixtures, `${name}.json`), `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`${join(fixtures, `${name}.tar.gz`)} and ${name}.json: ${documents.length} documents`);
