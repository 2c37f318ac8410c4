import { describe, expect, it } from 'vitest';
import { openWarehouse, resourceOptions } from '../../src/db/warehouse.ts';
import { cli, makeHome } from '../helpers/home.ts';

describe('DuckDB memory limit and spill directory', () => {
  it('come from MKTDATA_MEMORY_LIMIT and MKTDATA_TEMP_DIRECTORY; a limit that is not a size is refused naming the variable', async () => {
    expect(resourceOptions({})).toEqual({});
    expect(resourceOptions({ MKTDATA_MEMORY_LIMIT: '2GB', MKTDATA_TEMP_DIRECTORY: '/var/tmp/spill' })).toEqual({
      memory_limit: '2GB',
      temp_directory: '/var/tmp/spill',
    });
    expect(() => resourceOptions({ MKTDATA_MEMORY_LIMIT: 'lots' })).toThrow(
      'MKTDATA_MEMORY_LIMIT: "lots" is not a size such as 2GB or 1536MiB',
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
