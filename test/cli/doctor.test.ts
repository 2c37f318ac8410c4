import { execFile } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  demoSellers,
  fakeMarketplaceEnv,
  scaledClock,
  startFakeMarketplace,
  type FakeMarketplace,
} from '@mktdata/fake-marketplace';
import { setCredentials } from '../../src/connectors/credentials.ts';
import { setLoadStage } from '../../src/control/connections/load-stages.ts';
import { openWarehouse } from '../../src/db/warehouse.ts';
import { demoConnections } from '../../src/demo/demo-marketplace.ts';
import { resolveHome } from '../../src/home.ts';
import { connectAll, demoHome } from '../helpers/live.ts';
import { startServe } from '../helpers/serve.ts';

// `mktdata doctor` on homes whose two demo connections hold SP-API and Ads grants of a fake marketplace running in
// this process (so the CLI runs asynchronously: the fake answers on this event loop). Each broken setup is a copy of
// one such home with one thing broken.

const sellers = demoSellers();
const us = demoConnections[0]!.id;
const de = demoConnections[1]!.id;
let fake: FakeMarketplace;
let offClock: FakeMarketplace;
let home: string;
let offClockHome: string;

/** This environment without any MKTDATA_* setting that would change what doctor finds, plus `extra`. */
function envWith(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env))
    if (key.startsWith('MKTDATA_') && key !== 'MKTDATA_CACHE_DIR' && key !== 'MKTDATA_TEST_TMP') delete env[key];
  return { ...env, MKTDATA_MIN_FREE_DISK: '1MB', ...extra };
}

/** Runs `mktdata doctor` on a home against a fake; its exit code and its lines. */
async function doctor(root: string, market: FakeMarketplace, args: string[] = []) {
  try {
    const { stdout } = await promisify(execFile)('node', ['bin/mktdata.js', 'doctor', '--home', root, ...args], {
      env: envWith(fakeMarketplaceEnv(market)),
    });
    return { code: 0, lines: stdout.trimEnd().split('\n'), stdout, stderr: '' };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, lines: e.stdout.trimEnd().split('\n'), stdout: e.stdout, stderr: e.stderr };
  }
}

/** A home whose demo connections hold grants of `market`, closed; its folder. */
async function connectedHome(market: FakeMarketplace): Promise<string> {
  const made = await demoHome('mktdata-doctor-');
  await connectAll(made.wh, market, sellers);
  // As if their first load were done: a `serve` started on a copy then fetches nothing on its own.
  for (const c of demoConnections) await setLoadStage(made.wh.db, c.id, 'COMPLETE');
  await made.wh.close();
  return made.home.root;
}

/** A copy of the connected home, to break one thing in. */
function copyOfHome(): string {
  const root = join(mkdtempSync(join(tmpdir(), 'mktdata-doctor-copy-')), 'home');
  cpSync(home, root, { recursive: true });
  return root;
}

// Every line of a sound home, in order: 2 connections × 2 APIs = 4 grant lines (by connection name, as `connections
// list` orders them: DE before US); the scale-out checks do not apply.
const soundLines = (root: string) => [
  `✓ home permissions: ${root} is writable; the files that hold secrets are private (0600)`,
  '✓ configuration: the settings in the environment are valid',
  expect.stringMatching(/^✓ warehouse: /),
  `✓ secret key: ${join(root, 'secret.key')} is there and decrypts the 4 stored credentials`,
  '✓ SP-API application: Login with Amazon accepts its client id and secret',
  '✓ Ads API application: Login with Amazon accepts its client id and secret',
  `✓ SP-API grant of Acme Outdoor DE (${de}): Login with Amazon exchanges its refresh token for an access token`,
  `✓ Ads API grant of Acme Outdoor DE (${de}): Login with Amazon exchanges its refresh token for an access token`,
  `✓ SP-API grant of Acme Outdoor US (${us}): Login with Amazon exchanges its refresh token for an access token`,
  `✓ Ads API grant of Acme Outdoor US (${us}): Login with Amazon exchanges its refresh token for an access token`,
  expect.stringMatching(/^✓ clock: this machine's clock (agrees with|is \d+ s (behind|ahead of)) the marketplace's/),
  expect.stringMatching(/^✓ disk space: .* free on the disk of /),
  expect.stringMatching(/^✓ Node\.js: \d+\.\d+\.\d+ \(supported: >=20\)$/),
  expect.stringMatching(/^✓ DuckDB: v\d+\.\d+\.\d+ \(bundled with @duckdb\/node-api /),
  '- PostgreSQL: not applicable: a single home (MKTDATA_DATABASE_URL is not set)',
  '- shared folder: not applicable: a single home (MKTDATA_SHARED_DIR is not used)',
];

/** The sound lines with line `at` replaced by `line`. */
const soundBut = (root: string, at: number, ...replacing: unknown[]) => {
  const lines: unknown[] = soundLines(root);
  lines.splice(at, replacing.length, ...replacing);
  return lines;
};

beforeAll(async () => {
  fake = await startFakeMarketplace({ sellers });
  // A marketplace whose clock reads 10 minutes earlier than this machine's.
  offClock = await startFakeMarketplace({ sellers, clock: scaledClock(1, Date.now() - 600_000, Date.now()) });
  [home, offClockHome] = await Promise.all([connectedHome(fake), connectedHome(offClock)]);
});
afterAll(async () => {
  await fake?.close();
  await offClock?.close();
});

describe('mktdata doctor', () => {
  it('prints every check passing on a home connected to the marketplace, and exits 0', async () => {
    const result = await doctor(home, fake);
    expect(result.lines).toEqual(soundLines(home));
    expect(result.code).toBe(0);
    // No secret in what it prints: neither the applications' secrets nor a refresh token.
    for (const secret of [fake.spApp.clientSecret, fake.adsApp.clientSecret, 'Atzr|'])
      expect(result.stdout).not.toContain(secret);
    const json = JSON.parse((await doctor(home, fake, ['--format', 'json'])).stdout) as {
      name: string;
      status: string;
    }[];
    expect(json.map((c) => c.status)).toEqual([...Array(14).fill('ok'), 'skipped', 'skipped']);
  });

  it('names the missing secret key while credentials are stored, and exits 1', async () => {
    const root = copyOfHome();
    rmSync(join(root, 'secret.key'));
    const result = await doctor(root, fake);
    // The grants cannot be read without the key: their line says so, not applicable, and only the key's line fails.
    expect(result.lines).toEqual(
      soundBut(
        root,
        3,
        `✗ secret key: the home holds 4 stored credentials but no secret.key and MKTDATA_SECRET_KEY is not set — restore the key from your backup (${join(root, 'secret.key')}, 0600) or set MKTDATA_SECRET_KEY; without it the credentials cannot be read`,
        '✓ SP-API application: Login with Amazon accepts its client id and secret',
        '✓ Ads API application: Login with Amazon accepts its client id and secret',
        '- grants: not applicable: the stored refresh tokens cannot be read without the secret key (see its line above)',
      ).filter((_, i) => i < 7 || i > 9),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('mktdata: 1 of 13 checks failed: see the ✗ lines (each says what to do)\n');
  });

  it('names the connection whose grant the marketplace revoked, and how to reconnect it', async () => {
    const root = copyOfHome();
    const wh = await openWarehouse(resolveHome(root), 'test');
    const token = fake.grant(sellers[0]!.sellerId, 'sp-api');
    await setCredentials(wh, us, { api: 'sp-api', refreshToken: token, sellingPartnerId: sellers[0]!.sellerId });
    await wh.close();
    fake.revoke(token);
    const result = await doctor(root, fake);
    expect(result.lines).toEqual(
      soundBut(
        root,
        8,
        `✗ SP-API grant of Acme Outdoor US (${us}): Login with Amazon refused its refresh token (invalid_grant: revoked, or lapsed after 12 months) — reconnect it: send the seller an invitation link (POST /api/v1/util/sellers-and-vendors/invite) or store a new refresh token with \`mktdata connections credentials --connection ${us} --api sp-api\``,
      ),
    );
    expect(result.code).toBe(1);
  });

  it("fails the clock when the marketplace's is 10 minutes off this machine's", async () => {
    const result = await doctor(offClockHome, offClock);
    // The Date header has whole seconds: 600 s give or take one.
    expect(result.lines).toEqual(
      soundBut(
        offClockHome,
        10,
        expect.stringMatching(
          /^✗ clock: this machine's clock is (9 min 59|10 min 0|10 min 1) s ahead of the marketplace's \(the Date of Login with Amazon's answer\), more than the 5 minutes signed requests allow — set the clock right and keep it synchronized/,
        ),
      ),
    );
    expect(result.code).toBe(1);
  });

  it('finds a home made read-only by its mode even when run as root', async () => {
    const root = copyOfHome();
    chmodSync(root, 0o555);
    try {
      const result = await doctor(root, fake);
      // As root access(2) grants the write; the mode bits do not (as another user access(2) refuses it first).
      expect(result.lines).toEqual(
        soundBut(
          root,
          0,
          expect.stringMatching(
            new RegExp(
              `^✗ home permissions: ${root} is not writable: (its mode 0555 gives no write permission to its owner|this process \\(uid \\d+\\) may not write in it \\(mode 0555\\)) — give the user that runs mktdata write access`,
            ),
          ),
        ),
      );
      expect(result.code).toBe(1);
    } finally {
      chmodSync(root, 0o755);
    }
  });

  it('is handed to a running serve, which runs the checks on its open warehouse', async () => {
    const root = copyOfHome();
    const server = await startServe(root, ['--no-pipelines'], { env: envWith(fakeMarketplaceEnv(fake)) });
    try {
      const result = await doctor(root, fake);
      expect(result.lines).toEqual(
        soundBut(
          root,
          2,
          expect.stringMatching(/^✓ warehouse: held by the running server \(pid \d+\), which ran these checks$/),
        ),
      );
      expect(result.lines[2]).toContain(`pid ${server.child.pid}`);
      expect(result.code).toBe(0);
    } finally {
      await server.stop();
    }
  });
});
