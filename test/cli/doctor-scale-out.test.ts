import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../src/db/migrations/index.ts';
import { cli } from '../helpers/home.ts';
import { postgresMissing, startPostgres } from '../helpers/postgres.ts';

// `mktdata doctor` in a scaled-out install (MKTDATA_DATABASE_URL, MKTDATA_SHARED_DIR): PostgreSQL and the shared folder
// are checked, the single home's warehouse and permissions are not; PostgreSQL is asked, never migrated.

/** The environment of a scaled-out install with no application configured. */
const scaledEnv = (url: string, shared: string): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {
    MKTDATA_DATABASE_URL: url,
    MKTDATA_SHARED_DIR: shared,
    MKTDATA_MIN_FREE_DISK: '1MB',
  };
  for (const key of Object.keys(process.env))
    if (key.startsWith('MKTDATA_') && !(key in env) && key !== 'MKTDATA_CACHE_DIR' && key !== 'MKTDATA_TEST_TMP')
      env[key] = undefined;
  return env;
};

/** The line of each check, up to its colon. */
const names = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .map((line) => line.split(':')[0]);

describe('mktdata doctor, scaled out', () => {
  it('fails PostgreSQL when it does not answer, without showing the password of its URL', async () => {
    const shared = mkdtempSync(join(tmpdir(), 'mktdata-doctor-shared-'));
    const result = await cli(['doctor', '--home', join(shared, 'unused')], {
      env: scaledEnv('postgres://mktdata:s3cret-pw@127.0.0.1:1/mktdata', shared),
    });
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[3]).toMatch(
      /^✗ PostgreSQL: MKTDATA_DATABASE_URL: PostgreSQL at 127\.0\.0\.1:1\/mktdata could not be used \(connect ECONNREFUSED .*\) — start PostgreSQL, or correct MKTDATA_DATABASE_URL$/,
    );
    // The checks that need the control plane are not applicable (the PostgreSQL line is the one failing); the shared
    // folder is checked as a home is.
    expect(names(result.stdout)).toEqual([
      '- home permissions',
      '✓ configuration',
      '- warehouse',
      '✗ PostgreSQL',
      '- secret key',
      '- SP-API application',
      '- Ads API application',
      '- grants',
      '- clock',
      '✓ disk space',
      '✓ Node.js',
      '✓ DuckDB',
      '✓ shared folder',
    ]);
    expect(result.stdout + result.stderr).not.toContain('s3cret-pw');
    expect(result.code).toBe(1);
  });

  describe.skipIf(postgresMissing !== null)('with PostgreSQL running', () => {
    let server: Awaited<ReturnType<typeof startPostgres>>;
    beforeAll(async () => {
      server = await startPostgres();
    });
    afterAll(() => server?.stop());

    it('fails until the control plane is migrated, then passes, and never migrates it itself', async () => {
      const shared = mkdtempSync(join(tmpdir(), 'mktdata-doctor-shared-'));
      const env = scaledEnv(server.url, shared);
      const fresh = await cli(['doctor'], { env });
      // Every migration of this version is pending: the first and the last named.
      const all = Object.keys(migrations);
      const pending = `${all.length} migration(s) of this version not yet run (${all[0]} … ${all.at(-1)})`;
      expect(fresh.stdout).toContain(
        `✗ PostgreSQL: answers; ${pending} — start a \`mktdata worker\` of this version (it migrates)`,
      );
      expect(fresh.code).toBe(1);
      // Asked again, it has not migrated anything itself.
      expect((await cli(['doctor'], { env })).stdout).toContain(`✗ PostgreSQL: answers; ${pending}`);

      expect((await cli(['org', 'list'], { env })).code).toBe(0); // a command of the install migrates it
      const migrated = await cli(['doctor'], { env });
      expect(names(migrated.stdout)).toEqual([
        '- home permissions',
        '✓ configuration',
        '- warehouse',
        '✓ PostgreSQL',
        '✓ secret key',
        '- SP-API application',
        '- Ads API application',
        '- grants',
        '- clock',
        '✓ disk space',
        '✓ Node.js',
        '✓ DuckDB',
        '✓ shared folder',
      ]);
      expect(migrated.stdout).toContain('✓ PostgreSQL: answers; control plane migrated');
      expect(migrated.code).toBe(0);
    });
  });
});
