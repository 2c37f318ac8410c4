import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/api/app.ts';
import { sharedVirtualClock } from '../../src/time/clock.ts';
import { Connectors } from '../../src/connectors/connectors.ts';
import { createApiKey } from '../../src/control/organizations.ts';
import { openWarehouse } from '../../src/db/warehouse.ts';
import { demoSellers, fakeMarketplaceEnv, startFakeMarketplace, type FakeMarketplace } from '@mktdata/fake-marketplace';
import { contractViolations } from '../helpers/contracts.ts';
import { demoConnections } from '../../src/demo/demo-marketplace.ts';
import { childProcessClock, demoHome, fakeConfig } from '../helpers/live.ts';

/** Runs the CLI with extra environment and optional standard input; returns everything it printed. */
function cli(args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('node', ['bin/mktdata.js', ...args], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.stdin.end(input ?? '');
    child.on('exit', (code) => resolve({ code: code ?? -1, output }));
  });
}

/** Every file under a folder, recursively. */
const filesOf = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesOf(join(dir, e.name)) : [join(dir, e.name)],
  );

describe('secrets', () => {
  let fake: FakeMarketplace | undefined;
  let app: App | undefined;
  afterEach(async () => {
    await app?.close();
    await fake?.close();
  });

  it('never appear in CLI output, logs, API answers or the home in plain text', async () => {
    // Each command keeps the virtual clock in turn, each going on from where the one before stopped.
    const clock = childProcessClock();
    const sellers = demoSellers('2026-10-01');
    fake = await startFakeMarketplace({ sellers, clock: clock.fake, recordExchanges: true });
    const made = await demoHome('mktdata-secrets-');
    await made.wh.close();
    const home = made.home.root;
    const spToken = fake.grant(sellers[0]!.sellerId, 'sp-api');
    const adsToken = fake.grant(sellers[0]!.sellerId, 'ads');
    const us = demoConnections[0]!.id;
    const env = fakeMarketplaceEnv(fake, clock);
    const outputs: string[] = [];
    const step = async (args: string[], extra: NodeJS.ProcessEnv = {}, input?: string) => {
      const result = await cli([...args, '--home', home], { ...env, ...extra }, input);
      outputs.push(result.output);
      expect(result.code, `${args.join(' ')}: ${result.output}`).toBe(0);
    };
    await step(['connections', 'credentials', '--connection', us, '--selling-partner-id', sellers[0]!.sellerId], {
      MKTDATA_REFRESH_TOKEN: spToken,
    });
    await step(
      [
        'connections',
        'credentials',
        '--connection',
        us,
        '--api',
        'ads',
        '--profile-id',
        String(sellers[0]!.ads!.profileId),
      ],
      {},
      `${adsToken}\n`,
    );
    await step(['connections', 'test', '--connection', us]);
    await step(['connections', 'list']);
    await step(['run', '--pipeline', 'profit']);
    await step(['runs', '--format', 'json']);

    // The API, with the same connectors: every answer a client can get about the connection.
    const wh = await openWarehouse(made.home, 'test');
    try {
      app = await buildApp({
        wh,
        home: made.home,
        logger: { level: 'trace', stream: { write: (line: string) => outputs.push(line) } },
        // This process's connectors go on from the commands' clock, in the same file.
        connectors: new Connectors(fakeConfig(fake), sharedVirtualClock(clock.file, clock.start)),
      });
      const key = await createApiKey(wh, made.organizationId);
      for (const url of [
        '/api/v1/util/sellers-and-vendors',
        '/api/v1/util/organization',
        '/api/v1/spec/data-scheme',
        '/api/v1/openapi.json',
        `/api/v1/exports/sources?sellerOrVendorIds=${us}`,
      ]) {
        const answer = await app.inject({ method: 'GET', url, headers: { 'service-api-key': key } });
        outputs.push(JSON.stringify(answer.headers), answer.body);
      }
    } finally {
      await app?.close();
      app = undefined;
      await wh.close();
    }

    const secrets = [spToken, adsToken, fake.spApp.clientSecret, fake.adsApp.clientSecret];
    const everything = outputs.join('\n');
    for (const secret of secrets) expect(everything.includes(secret), `a secret in the output`).toBe(false);
    // No access token (Atza|…) or refresh token (Atzr|…) at all, whoever issued it.
    expect(everything).not.toMatch(/Atz[ar]\|/);
    for (const file of filesOf(home)) {
      const bytes = readFileSync(file);
      for (const secret of [...secrets, 'Atza|', 'Atzr|'])
        expect(bytes.includes(Buffer.from(secret)), `${secret.slice(0, 4)}… in ${file}`).toBe(false);
    }
    // The commands' requests, made in other processes, are ones the published models allow.
    expect(contractViolations(fake)).toEqual([]);
  });
});
