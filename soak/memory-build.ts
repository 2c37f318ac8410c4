// Child of `npm run soak -- resources`: generates the two-year bench data set (5M order lines, 15M settlement rows,
// 1M traffic rows) in a new home and builds every model from it, under the MKTDATA_MEMORY_LIMIT and
// MKTDATA_TEMP_DIRECTORY its parent sets. Prints one JSON line: the build's outcome, its time and peak memory.
import { join } from 'node:path';
import { generate } from '../bench/profit.ts';
import { openWarehouse } from '../src/db/warehouse.ts';
import { resolveHome } from '../src/home.ts';
import { runModels } from '../src/models/run-models.ts';

const home = resolveHome(join(process.argv[2]!, 'home'));
const wh = await openWarehouse(home, 'soak', { create: true });
try {
  const setting = (
    await wh.sql.runAndReadAll(`select current_setting('memory_limit'), current_setting('temp_directory')`)
  ).getRowsJson()[0]!;
  await generate(wh);
  const started = performance.now();
  const results = await runModels(wh, { fullRefresh: true });
  const failed = results.filter((r) => r.status !== 'success').map((r) => `${r.model}: ${r.error ?? r.status}`);
  const rows = failed.length
    ? 0
    : Number(
        (await wh.sql.runAndReadAll('select count(*) from marts.mkt_profit_by_sku_and_date')).getRowsJson()[0]![0],
      );
  console.log(
    JSON.stringify({
      memoryLimit: setting[0],
      tempDirectory: setting[1],
      models: results.length,
      failed,
      buildMs: performance.now() - started,
      profitRows: rows,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
    }),
  );
} finally {
  await wh.close();
}
