import { describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/control/organizations.ts';
import { makeHome } from '../helpers/home.ts';
import { startServe } from '../helpers/serve.ts';

describe('mktdata serve (end to end over HTTP)', () => {
  it('serves /api/v1 on a loopback port with a key, limits a burst with 429 and Retry-After, and stops gracefully', async () => {
    const { home, wh } = await makeHome();
    const org = (await wh.db.selectFrom('control.organizations').select('id').executeTakeFirstOrThrow()).id;
    const key = await createApiKey(wh, org);
    await wh.close();

    const server = await startServe(home.root);
    const base = server.base;
    let exitCode: number | null;
    try {
      const call = (path: string) => fetch(`${base}${path}`, { headers: { 'service-api-key': key } });
      const burst = await Promise.all([1, 2, 3, 4].map(() => call('/util/organization')));
      const statuses = burst.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 200, 429, 429]);
      const limited = burst.find((r) => r.status === 429)!;
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(limited.headers.get('service-api-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(await limited.json()).toMatchObject({ statusCode: 429, code: 'ERR_RATE_LIMITED' });

      await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
      const after = await call('/util/organization');
      expect(after.status).toBe(200);
      expect(await after.json()).toMatchObject({ name: 'Test org' });
      expect((await fetch(`${base}/spec/data-scheme?query=pnl`)).status).toBe(200);
    } finally {
      exitCode = await server.stop();
    }
    expect(exitCode).toBe(0);
  });

  it('logs JSON lines off a terminal: requests at info level, nothing below warn with --quiet, and at least info with --verbose', async () => {
    const { home, wh } = await makeHome();
    await wh.close();
    const levels = async (args: string[]) => {
      const server = await startServe(home.root, args);
      try {
        await fetch(`${server.base}/spec/data-scheme?query=pnl`);
      } finally {
        await server.stop();
      }
      return server
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => (JSON.parse(line) as { level: number }).level);
    };
    // pino levels: 20 debug, 30 info, 40 warn.
    expect(await levels([])).toContain(30);
    expect((await levels(['--quiet'])).filter((level) => level < 40)).toEqual([]);
    expect(await levels(['--verbose'])).toContain(30);
  });
});
