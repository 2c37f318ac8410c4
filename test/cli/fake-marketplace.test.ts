import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Runs the CLI with extra environment and standard input. */
function mktdata(args: string[], env: Record<string, string>, input = '') {
  const r = spawnSync('node', ['bin/mktdata.js', ...args], {
    env: { ...process.env, ...env, NO_COLOR: '1' },
    input,
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('mktdata fake-marketplace (the README session against a fake account)', () => {
  it('prints the environment and refresh tokens with which a home connects a seller and passes `connections test`', async () => {
    const fake = spawn('node', ['bin/mktdata.js', 'fake-marketplace', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    fake.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setInterval(
          () => /A3ACMEDE0SELLER[\s\S]*ads /.test(out) && (clearInterval(timer), resolve()),
          50,
        );
        fake.once('exit', (code) => (clearInterval(timer), reject(new Error(`fake-marketplace exited with ${code}`))));
      });
      expect(out).toMatch(/^fake marketplace listening on http:\/\/127\.0\.0\.1:\d+/);
      const env = Object.fromEntries([...out.matchAll(/^export (\w+)='([^']*)'$/gm)].map((m) => [m[1]!, m[2]!]));
      expect(Object.keys(env).sort()).toEqual([
        'MKTDATA_ADS_CLIENT_ID',
        'MKTDATA_ADS_CLIENT_SECRET',
        'MKTDATA_MARKETPLACE_URL',
        'MKTDATA_NOTIFICATIONS_QUEUE_URL',
        'MKTDATA_SP_API_APPLICATION_ID',
        'MKTDATA_SP_API_CLIENT_ID',
        'MKTDATA_SP_API_CLIENT_SECRET',
      ]);
      const spToken = /^A3ACMEUS0SELLER[^\n]*\n {2}sp-api {2}(Atzr\|\S+)/m.exec(out)![1]!;
      const [, adsToken, profile] = /^A3ACMEUS0SELLER[^\n]*\n[^\n]*\n {2}ads {5}(Atzr\|\S+) \(profile (\d+)\)/m.exec(
        out,
      )!;

      const home = join(mkdtempSync(join(tmpdir(), 'mktdata-fake-cli-')), 'home');
      const h = { MKTDATA_HOME: home, ...env };
      expect(mktdata(['init'], h)).toMatchObject({ code: 0 });
      const org = mktdata(['org', 'create', '--name', 'Fake session'], h).stdout.trim();
      const conn = mktdata(
        [
          'connections',
          'add',
          '--org',
          org,
          '--name',
          'Acme US',
          '--marketplace',
          'ATVPDKIKX0DER',
          '--seller-id',
          'A3ACMEUS0SELLER',
        ],
        h,
      ).stdout.trim();
      expect(
        mktdata(
          ['connections', 'credentials', '--connection', conn, '--selling-partner-id', 'A3ACMEUS0SELLER'],
          h,
          spToken,
        ),
      ).toMatchObject({ code: 0 });
      expect(
        mktdata(['connections', 'credentials', '--connection', conn, '--api', 'ads', '--profile-id', profile!], {
          ...h,
          MKTDATA_REFRESH_TOKEN: adsToken!,
        }),
      ).toMatchObject({ code: 0 });
      const test = mktdata(['connections', 'test', '--connection', conn], h);
      expect(test.stderr).toBe('');
      expect(test.stdout).toMatch(/^SP-API: ok, the seller sells in United States/m);
      expect(test.stdout).toMatch(new RegExp(`^Ads API: ok, profile ${profile}`, 'm'));
      // Neither refresh token is echoed back.
      expect(test.stdout).not.toContain(spToken);
      expect(test.stdout).not.toContain(adsToken);
    } finally {
      fake.kill('SIGTERM');
      if (fake.exitCode === null) await once(fake, 'exit');
    }
    expect(fake.exitCode).toBe(0);
  });
});
