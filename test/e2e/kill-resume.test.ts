import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { demoSellers, fakeMarketplaceEnv, startFakeMarketplace, type FakeMarketplace } from '@mktdata/fake-marketplace';
import { childProcessClock, connectAll, demoHome } from '../helpers/live.ts';
import { contractViolations } from '../helpers/contracts.ts';

/** A report create the fake accepted: its seller, type and window (SP-API) or type and dates (Ads API). */
const creates = (fake: FakeMarketplace) =>
  fake.log
    .filter(
      (e) =>
        (e.operation === 'createReport' && e.status === 202) ||
        (e.api === 'ads' && e.operation === 'createReport' && e.status === 200),
    )
    .map((e) =>
      JSON.stringify([
        e.api,
        e.sellerId,
        e.detail.reportType ?? e.detail.reportTypeId,
        e.detail.dataStartTime ?? e.detail.startDate,
        e.detail.dataEndTime ?? e.detail.endDate,
      ]),
    );

describe('a run killed while reports are processing', () => {
  let fake: FakeMarketplace | undefined;
  afterEach(async () => {
    await fake?.close();
  });

  it('resumes the same reports on the next run and requests none twice', async () => {
    // Each `mktdata run` keeps the virtual clock, the second going on from where the killed one stopped.
    const clock = childProcessClock();
    const sellers = demoSellers('2026-09-01');
    // The first run is killed at the request that makes 10 reports created and 10 polls of them, while it polls.
    let first: ChildProcess | undefined;
    let killed = false;
    fake = await startFakeMarketplace({
      sellers,
      clock: clock.fake,
      recordExchanges: true,
      onRequest: () => {
        if (killed || !first) return;
        const polled = fake!.log.filter((e) => e.operation === 'getReport').length;
        if (creates(fake!).length >= 10 && polled >= 10) {
          killed = true;
          first.kill('SIGKILL');
        }
      },
    });
    const { home, wh } = await demoHome('mktdata-kill-');
    await connectAll(wh, fake, sellers);
    await wh.close();
    // Reports stay in the queue: the run is killed while it polls them.
    fake.setSwitch('getReport', { stuck: true });
    const run = () =>
      spawn('node', ['bin/mktdata.js', 'run', '--home', home.root, '--pipeline', 'profit'], {
        env: { ...process.env, ...fakeMarketplaceEnv(fake!, clock) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    first = run();
    const [firstCode, signal] = (await once(first, 'exit')) as [number | null, NodeJS.Signals | null];
    expect(signal, `the run ended by itself (${firstCode}) before it was killed`).toBe('SIGKILL');
    const before = creates(fake);
    fake.setSwitch('getReport', { stuck: false });

    const second = run();
    let output = '';
    second.stdout.on('data', (chunk) => (output += chunk));
    second.stderr.on('data', (chunk) => (output += chunk));
    const [code] = (await once(second, 'exit')) as [number];
    expect(code, output).toBe(0);
    const after = creates(fake);
    // Every report the killed run created was resumed, not created again, and no report was created twice.
    expect(after.slice(0, before.length)).toEqual(before);
    expect(
      after.filter((create, i) => after.indexOf(create) !== i),
      output,
    ).toEqual([]);
    expect(output).toMatch(/^fetched {2}GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL/m);
    // A document is announced when downloaded; its request's result follows once the fetch's documents landed together.
    const downloaded = output.search(
      /^downloaded GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL \S+ \S+: lands with this fetch's other documents$/m,
    );
    expect(downloaded, output).toBeGreaterThanOrEqual(0);
    expect(downloaded).toBeLessThan(output.search(/^fetched {2}GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL/m));
    // The search for the reports the killed run created (getReports) is a request the published model allows.
    expect(contractViolations(fake)).toEqual([]);
  });
});
