import { Option, type Command } from 'commander';
import type { Home } from '../home.ts';
import type { CommandFactory, WithControl } from './arguments.ts';
import { queryFormats } from './output.ts';

/**
 * The commands on the catalog tables: `mktdata query` and `export` read the published snapshot (in a scaled-out
 * install, the shards'), `sources enable|disable` choose an organization's exportable tables.
 */
export function catalogCommands(
  program: Command,
  command: CommandFactory,
  readHome: () => Promise<Home>,
  withControl: WithControl,
): void {
  command(
    program,
    'query',
    'mktdata query "select date, profit from mkt_profit_by_date order by date desc limit 7" --format csv',
  )
    .description('run read-only SQL on the published snapshot')
    .argument('<sql>', 'SQL to run')
    .addOption(new Option('--format <format>', 'output format').choices(queryFormats).default('table'))
    .action(async (sql: string, o) => (await import('./commands/query.ts')).query(await readHome(), sql, o.format));

  command(
    program,
    'export',
    'mktdata export --table mkt_profit_by_sku_and_date --connection $CONN --from 2026-03-01 --to 2026-03-31 --format parquet --out march.parquet',
  )
    .description('write a catalog table to a file, as the HTTP export would')
    .option('--table <name>', 'catalog table, e.g. mkt_order_items_with_cogs')
    .option('--connection <ids...>', 'sellerOrVendorIds')
    .option('--from <date>', 'first day (YYYY-MM-DD, or an ISO date-time: its marketplace-local date)')
    .option('--to <date>', 'last day, inclusive')
    .addOption(new Option('--format <format>', 'file format (default: csv)').choices(['csv', 'json', 'parquet']))
    .option(
      '--request <file>',
      'a JSON ExportRequest as the API takes it (filters, groupBy, …); the flags above override its fields',
    )
    .requiredOption('--out <file>', 'file to write')
    .action(async (o) => {
      const { exportToFile } = await import('./commands/export.ts');
      const rows = await exportToFile(await readHome(), o);
      console.log(`wrote ${rows} rows to ${o.out}`);
    });

  const sources = program.command('sources').description('catalog sources an organization may export');
  for (const [verb, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    command(sources, verb, `mktdata sources ${verb} --org $ORG --table mkt_listings_raw`)
      .description(`${verb} a catalog table for an organization's exports`)
      .requiredOption('--org <id>', 'organization id')
      .requiredOption('--table <name>', 'catalog table, e.g. mkt_profit_by_date')
      .action(async (o) => {
        const { setSourceEnabled } = await import('../exports/export-source.ts');
        await withControl(`sources ${verb}`, async (wh) => {
          const source = await setSourceEnabled(wh, o.org, o.table, enabled);
          console.log(`${source.tableName} ${verb}d for organization ${o.org}`);
        });
      });
  }
}
