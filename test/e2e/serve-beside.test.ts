import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { demoSellers, fakeMarketplaceEnv, startFakeMarketplace, type FakeMarketplace } from '@mktdata/fake-marketplace';
import { contractViolations } from '../helpers/contracts.ts';
import { connectThroughInvitation } from '../helpers/consent.ts';
import { cli } from '../helpers/home.ts';
import { childProcessClock } from '../helpers/live.ts';
import { startServe, type ServeProcess } from '../helpers/serve.ts';

const lastLine = (text: string) => text.trim().split('\n').at(-1)!;

/** Polls `probe` (each call a CLI command handed to the server) until it holds or `ms` of real time pass. */
async function until(ms: number, probe: () => Promise<boolean>): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < ms; await delay(1000)) if (await probe()) return true;
  return false;
}

describe('the command line beside a running server', () => {
  let fake: FakeMarketplace | undefined;
  const servers: ServeProcess[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.stop(10_000);
    await fake?.close();
  });

  it('loads a seller connected through an invitation at once, and lets every command work while it serves', async () => {
    // The server keeps the virtual clock: the consent's code cannot expire while a busy machine keeps it waiting.
    const clock = childProcessClock();
    fake = await startFakeMarketplace({ sellers: demoSellers('2026-10-01'), clock: clock.fake, recordExchanges: true });
    const env = fakeMarketplaceEnv(fake, clock);
    const home = join(mkdtempSync(join(tmpdir(), 'mktdata-beside-')), 'home');
    const h = ['--home', home];
    const run = (args: string[]) => cli([...args, ...h], { env });
    expect((await run(['init'])).code).toBe(0);
    const org = lastLine((await run(['org', 'create', '--name', 'Agency'])).stdout);
    const key = lastLine((await run(['keys', 'create', '--org', org])).stdout);

    const server = await startServe(home, [], { env });
    servers.push(server);
    const api = (path: string, init: RequestInit = {}, withKey = key) =>
      fetch(`${server.base}${path}`, {
        ...init,
        headers: { 'service-api-key': withKey, 'content-type': 'application/json' },
      });

    // The seller connects through the invitation: the marketplace's consent page, driven over HTTP.
    const invite = await api('/util/sellers-and-vendors/invite', {
      method: 'POST',
      body: JSON.stringify({ accountType: 'SELLER', name: 'Acme US' }),
    });
    const { url } = (await invite.json()) as { url: string };
    const connected = await connectThroughInvitation(url, 'A3ACMEUS0SELLER', {
      name: 'Acme US',
      marketplaceId: 'ATVPDKIKX0DER',
    });
    expect(connected.callback.status).toBe(201);
    expect(connected.body).toContain('Its first load has started');
    const connection = /<code>([0-9a-f-]{36})<\/code>/.exec(connected.body)![1]!;

    // Its first load starts (the runs list, through the server, shows its windows), then completes.
    const windowsOf = async () =>
      (JSON.parse((await run(['runs', '--format', 'json'])).stdout) as { connection: string | null }[]).filter(
        (r) => r.connection === connection,
      ).length;
    expect(await until(180_000, async () => (await windowsOf()) > 0)).toBe(true);
    const stage = async () =>
      (
        JSON.parse((await run(['connections', 'list', '--format', 'json'])).stdout) as {
          id: string;
          load_stage: string;
        }[]
      ).find((c) => c.id === connection)?.load_stage;
    expect(await until(600_000, async () => (await stage()) === 'COMPLETE'), `load stage ${await stage()}`).toBe(true);
    const runs = await run(['runs', '--limit', '3']);
    expect(runs.code, runs.stderr).toBe(0);
    expect(runs.stdout).toContain(connection);

    // Keys made and revoked beside the server: the revoked key gets 401 at once.
    const made = await run(['keys', 'create', '--org', org]);
    expect(made.code, made.stderr).toBe(0);
    const second = lastLine(made.stdout);
    const keyId = /^key id (\S+) /m.exec(made.stdout)![1]!;
    expect((await api('/util/organization', {}, second)).status).toBe(200);
    const listed = JSON.parse((await run(['keys', 'list', '--org', org, '--format', 'json'])).stdout) as {
      id: string;
      revoked_at: string | null;
    }[];
    expect(listed.map((k) => k.id)).toContain(keyId);
    const revoked = await run(['keys', 'revoke', '--id', keyId]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect((await api('/util/organization', {}, second)).status).toBe(401);
    expect((await api('/util/organization')).status).toBe(200);

    // The console's "run now" and "refresh now" queue runs in the server.
    const login = await fetch(`${server.base.replace(/\/api\/v1$/, '')}/login`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ key, next: '/runs' }),
    });
    await login.text();
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const consolePost = async (path: string, form: Record<string, string>) => {
      const res = await fetch(`${server.base.replace(/\/api\/v1$/, '')}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie },
        body: new URLSearchParams(form),
      });
      await res.text();
      return [res.status, res.headers.get('location')];
    };
    expect(await consolePost('/runs/now', { pipeline: 'listings' })).toEqual([303, '/runs?queued=listings']);
    expect(await consolePost(`/connections/${connection}/refresh`, {})).toEqual([
      303,
      '/runs?queued=awd%2Cfba%2Clistings%2Cprofit%2Cpromotions%2Creplenishment',
    ]);
    expect(await consolePost('/connections/00000000-0000-4000-8000-000000000000/refresh', {})).toEqual([404, null]);
    const runsPage = await (
      await fetch(`${server.base.replace(/\/api\/v1$/, '')}/runs?queued=listings`, { headers: { cookie } })
    ).text();
    expect(runsPage).toContain('Queued: listings.');
    expect(runsPage).toContain('<button type="submit">Run now</button>');

    // A run asked for on the command line runs in the server, its output followed here.
    const asked = await run(['run', '--pipeline', 'profit']);
    expect(asked.code, asked.stderr).toBe(0);
    expect(lastLine(asked.stdout)).toMatch(/^[0-9a-f-]{36}$/);
    expect(server.output()).toContain('admin channel: mktdata run');
    expect(await server.stop(30_000)).toBe(0);
    // What the server fetched through the invitation's grant: requests the published models allow.
    expect(contractViolations(fake)).toEqual([]);
  }, 900_000);

  it('fails at once on a port in use, and leaves the home free', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const home = join(mkdtempSync(join(tmpdir(), 'mktdata-port-')), 'home');
      expect((await cli(['init', '--home', home])).code).toBe(0);
      const started = Date.now();
      const serve = await cli(['serve', '--home', home, '--port', String(port)]);
      expect(Date.now() - started).toBeLessThan(30_000); // no waiting for the port, even on a busy machine
      expect(serve.code).toBe(1);
      expect(serve.stderr).toContain(`mktdata: port ${port} on 127.0.0.1 is in use`);
      const next = await cli(['runs', '--home', home]);
      expect(next.code, next.stderr).toBe(0);
    } finally {
      taken.close();
    }
  });
});
