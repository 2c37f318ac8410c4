import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { DuckDBInstance } from '@duckdb/node-api';
import { duckDbOptions } from '../db/warehouse.ts';
import { fail, ok, type CheckResult } from './check.ts';

/** The Node.js running mktdata against package.json's `engines.node` (`>=20`). */
export function nodeCheck(version = process.versions.node): CheckResult {
  const engines = (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines?: { node?: string } }
  ).engines?.node;
  const least = Number(/>=\s*(\d+)/.exec(engines ?? '')?.[1] ?? 20);
  const major = Number(version.split('.')[0]);
  if (major >= least) return ok('Node.js', `${version} (supported: ${engines ?? `>=${least}`})`);
  return fail('Node.js', `${version} is older than supported (${engines})`, `install Node.js ${least} or newer`);
}

/**
 * The DuckDB library loaded is the one bundled with the installed @duckdb/node-api (its version is DuckDB's plus a
 * release suffix, `1.5.6-r.1` for DuckDB v1.5.6): a mismatched native binding would read or write the files wrongly.
 */
export async function duckDbCheck(): Promise<CheckResult> {
  const require = createRequire(import.meta.url);
  const bundled = (require('@duckdb/node-api/package.json') as { version: string }).version;
  const instance = await DuckDBInstance.create(':memory:', duckDbOptions);
  try {
    const connection = await instance.connect();
    const running = String((await connection.runAndReadAll('select version()')).getRowsJson()[0]![0]);
    connection.closeSync();
    if (running.replace(/^v/, '') === bundled.split('-')[0])
      return ok('DuckDB', `${running} (bundled with @duckdb/node-api ${bundled})`);
    return fail(
      'DuckDB',
      `${running} is loaded, but @duckdb/node-api ${bundled} bundles v${bundled.split('-')[0]}`,
      'reinstall mktdata (`npm ci` in a clone, or `npm install` of the package) so that its native binding matches',
    );
  } finally {
    instance.closeSync();
  }
}
