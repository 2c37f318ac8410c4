import { describe, expect, it } from 'vitest';
import { openWarehouse, resourceOptions } from '../../src/db/warehouse.ts';
import { cli, makeHome } from '../helpers/home.ts';

/** Runs `work` with MKTDATA_THREADS set to `threads`, then puts back the test run's own value. */
async function withThreads<T>(threads: string, work: () => Promise<T>): Promise<T> {
  const before = process.env.MKTDATA_THREADS;
  process.env.MKTDATA_THREADS = threads;
  try {
    return await work();
  } finally {
    if (before === undefined) delete process.env.MKTDATA_THREADS;
    else process.env.MKTDATA_THREADS = before;
  }
}

describe('DuckDB memory limit, threads and spill directory', () => {
  it('come from MKTDATA_MEMORY_LIMIT, MKTDATA_THREADS and MKTDATA_TEMP_DIRECTORY; a value of the wrong kind is refused naming the variable', async () => {
    expect(resourceOptions({})).toEqual({});
    expect(
      resourceOptions({ MKTDATA_MEMORY_LIMIT: '2GB', MKTDATA_THREADS: '3', MKTDATA_TEMP_DIRECTORY: '/var/tmp/spill' }),
    ).toEqual({ memory_limit: '2GB', threads: '3', temp_directory: '/var/tmp/spill' });
    expect(() => resourceOptions({ MKTDATA_MEMORY_LIMIT: 'lots' })).toThrow(
      'MKTDATA_MEMORY_LIMIT: "lots" is not a size such as 2GB or 1536MiB',
    );
    for (const threads of ['0', '1.5', 'two', '2000'])
      expect(() => resourceOptions({ MKTDATA_THREADS: threads })).toThrow(
        `MKTDATA_THREADS: "${threads}" is not a whole number of threads from 1 to 1024`,
      );

    const { home, wh } = await makeHome();
    await wh.close();
    process.env.MKTDATA_MEMORY_LIMIT = '1GB';
    try {
      // 1 GB is 10^9 bytes: DuckDB shows it as 953.6 MiB.
      const limitedWh = await openWarehouse(home, 'test');
      const [setting] = (await limitedWh.sql.runAndReadAll(`select current_setting('memory_limit')`)).getRowsJson()[0]!;
      await limitedWh.close();
      expect(setting).toBe('953.6 MiB');
      const threaded = await withThreads('3', async () => {
        const opened = await openWarehouse(home, 'test');
        const [threads] = (await opened.sql.runAndReadAll(`select current_setting('threads')`)).getRowsJson()[0]!;
        await opened.close();
        return threads;
      });
      expect(String(threaded)).toBe('3');
      const limited = await cli(['build', '--home', home.root, '--select', 'marts.mkt_cogs']);
      expect(limited.code, limited.stderr).toBe(0);
      // Too small to open the warehouse at all: said so, at once (not mistaken for a locked home).
      process.env.MKTDATA_MEMORY_LIMIT = '1KB';
      const tiny = await cli(['build', '--home', home.root]);
      expect(tiny.code).toBe(1);
      expect(tiny.stderr).toContain('MKTDATA_MEMORY_LIMIT: "1KB" is too small to open the warehouse (');
      process.env.MKTDATA_MEMORY_LIMIT = '2 gigs';
      const refused = await cli(['build', '--home', home.root]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('MKTDATA_MEMORY_LIMIT: "2 gigs" is not a size such as 2GB or 1536MiB');
    } finally {
      delete process.env.MKTDATA_MEMORY_LIMIT;
    }
  });
});
