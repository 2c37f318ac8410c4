import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { resolveHome, type Home } from '../../src/home.ts';
import type { Document } from './arrival-order.ts';

// The committed home of the last release (fixtures/upgrade/, written by scripts/make-upgrade-home.ts when a release
// is cut) and what its manifest says, read without the code under test.

export const repo = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = join(repo, 'fixtures/upgrade');
const [manifestName, ...others] = readdirSync(fixtures).filter((n) => /^home-.+\.json$/.test(n));
if (!manifestName || others.length > 0) throw new Error(`fixtures/upgrade/ must hold one home-<version>.json`);

/** What scripts/make-upgrade-home.ts wrote beside the home. */
export const manifest = JSON.parse(readFileSync(join(fixtures, manifestName), 'utf8')) as {
  version: string;
  runs: string[];
  documents: (Omit<Document, 'file'> & { name: string; sha256: string; archived: string })[];
  models: Record<string, string>;
};

/** This checkout's version (package.json). */
export const currentVersion = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string })
  .version;

export const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** A copy of the committed home in a new temporary folder. */
export function unpackHome(): Home {
  const root = join(mkdtempSync(join(tmpdir(), 'mktdata-upgrade-')), 'home');
  mkdirSync(root);
  execFileSync('tar', ['-xzf', join(fixtures, manifestName!.replace(/\.json$/, '.tar.gz')), '-C', root]);
  return resolveHome(root);
}

/** The fixture's documents, as the home archived them, each checked against the SHA-256 the manifest gives. */
export function fixtureDocuments(home: Home): (Document & { name: string })[] {
  return manifest.documents.map((d) => {
    const file = join(home.root, d.archived);
    if (sha256(file) !== d.sha256) throw new Error(`${d.archived} is not the document the fixture was built from`);
    return { connection: d.connection, source: d.source, file, name: d.name };
  });
}

/** Rows of a query on a DuckDB file, opened by DuckDB itself (read-only unless `write`). */
export async function duck(file: string, query: string, write = false): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(file, write ? {} : { access_mode: 'READ_ONLY' });
  const sql = await instance.connect();
  try {
    return (await sql.runAndReadAll(query)).getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    sql.closeSync();
    instance.closeSync();
  }
}

/** Every .sql and seed .csv file under models/ (relative paths): the files the manifest lists the SHA-256 of. */
function modelFiles(dir: string, under = ''): string[] {
  return readdirSync(join(dir, under)).flatMap((name) => {
    const path = join(under, name);
    if (statSync(join(dir, path)).isDirectory()) return modelFiles(dir, path);
    return /\.(sql|csv)$/.test(name) ? [path] : [];
  });
}

/**
 * The models a first run must rebuild whole, by the rule of src/models/model-inputs.ts `lineageDigest`: a model is
 * rebuilt whole when its own SQL (a seed's rows), that of any model it reads, all the way up, or models/macros.sql
 * changed. Worked out here from the files: a model file whose SHA-256 differs from the manifest's (or that is new),
 * then every model whose SQL names a changed one (comments left out) or calls a macro that names one.
 */
export function modelsToRebuild(modelsDir: string): Set<string> {
  const files = modelFiles(modelsDir);
  const idOf = (path: string) => path.replace(/\.(sql|csv)$/, '').replace('/', '.');
  const text = (path: string) => readFileSync(join(modelsDir, path), 'utf8').replace(/--[^\n]*/g, '');
  const models = files.filter((f) => f !== 'macros.sql');
  if (sha256(join(modelsDir, 'macros.sql')) !== manifest.models['macros.sql']) return new Set(models.map(idOf));
  const changed = new Set(models.filter((f) => sha256(join(modelsDir, f)) !== manifest.models[f]).map(idOf));
  const macros = text('macros.sql').split(/(?=\bcreate or replace macro\s)/i);
  const reads = new Map(
    models.map((f) => {
      const sql = text(f);
      const called = macros.filter((m) => {
        const name = /^create or replace macro\s+(\w+)/i.exec(m)?.[1];
        return name !== undefined && new RegExp(`\\b${name}\\s*\\(`).test(sql);
      });
      return [idOf(f), [sql, ...called].join('\n')];
    }),
  );
  for (let grown = true; grown;) {
    grown = false;
    for (const [id, sql] of reads)
      if (!changed.has(id) && [...changed].some((c) => new RegExp(`\\b${c.replace('.', '\\.')}\\b`).test(sql))) {
        changed.add(id);
        grown = true;
      }
  }
  return changed;
}
