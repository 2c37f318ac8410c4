import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import type { Warehouse } from '../db/warehouse.ts';
import { MktdataError } from '../errors.ts';
import { mktdataVersion as version } from '../lib/version.ts';
import { resolveHome } from '../home.ts';
import { webhookCommands } from './webhook-commands.ts';
import { actionCommands } from './action-commands.ts';
import { controlCommands } from './control-commands.ts';
import { serverCommands } from './server-commands.ts';
import { catalogCommands } from './catalog-commands.ts';
import { backupCommands } from './backup-commands.ts';
import { doctorCommands } from './doctor-commands.ts';
import { date, wholeNumber } from './arguments.ts';
import { commandCwd, served } from './served.ts';

// Command modules (and DuckDB, Fastify, the models behind them) load when their command runs, so that `--help`,
// `--version` and a mistyped command answer at once.

/** A command that a running `mktdata serve` ran for this process: its exit code is the command's. */
export class Forwarded extends Error {
  constructor(readonly exitCode: number) {
    super(`the server ran the command (exit code ${exitCode})`);
  }
}

/**
 * The `mktdata` command line for one invocation (`argv`: its arguments, for handing it to a running server;
 * `runCli`: how `serve` runs the command lines handed to it).
 * Exit codes: 0 success, 1 a failure (one line on stderr), 2 a usage error (commander's message and the help).
 */
export function buildProgram(argv: string[], runCli: (argv: string[]) => Promise<number>): Command {
  /** Secrets the command read before it touched the home: a running server is handed them with the command. */
  const secrets: Record<string, string> = {};
  const options = () => program.opts<{ home?: string; quiet?: boolean }>();

  /**
   * The home's writer is a running `mktdata serve`: hands it this whole command line, which it runs on its own open
   * warehouse (src/cli/admin-channel.ts); returns only when no server holds the home.
   */
  async function handToServer(): Promise<void> {
    if (served()) return;
    const { forwardToServer } = await import('./admin-channel.ts');
    const code = await forwardToServer(home(), argv, secrets, Boolean(options().quiet));
    if (code !== null) throw new Forwarded(code);
  }

  /**
   * Runs `work` on a home's warehouse, opened for writing as `command` and closed after (or, beside a running
   * server, on the server's, in turn with its pipeline runs). A scaled-out install has no such warehouse (its
   * workers build the shards): the command is refused, naming the variable that makes it one.
   */
  async function withHome<T>(command: string, work: (wh: Warehouse) => Promise<T>): Promise<T> {
    const serving = served();
    if (serving) return serving.exclusive(() => work(serving.wh));
    if ((await import('../scale/scale-config.ts')).scaleConfig()) {
      throw new MktdataError('ERR_INPUT_INVALID', {
        where: 'MKTDATA_DATABASE_URL',
        reason: `\`mktdata ${command}\` works on a single home; in this scaled-out install the workers build the shards (drop files in $MKTDATA_SHARED_DIR/landing/, see docs/scale-out.md)`,
      });
    }
    await handToServer();
    const { withWarehouse } = await import('../db/warehouse.ts');
    return withWarehouse(home(), command, work);
  }

  /** The home whose published data `query` and `export` read: in a scaled-out install, the shards' snapshots. */
  async function readHome() {
    const { scaleConfig, sharedHome } = await import('../scale/scale-config.ts');
    const config = scaleConfig();
    return config ? sharedHome(config) : home();
  }

  /**
   * Runs `work` on the control plane: the home's warehouse (beside a running server, its open one, at once), or in a
   * scaled-out install (MKTDATA_DATABASE_URL) the shared PostgreSQL, for the commands that only touch the control
   * plane.
   */
  async function withControl<T>(command: string, work: (wh: Warehouse) => Promise<T>): Promise<T> {
    const serving = served();
    if (serving) return work(serving.wh);
    const { scaleConfig } = await import('../scale/scale-config.ts');
    const config = scaleConfig();
    if (!config) return withHome(command, work);
    const { withSharedControl } = await import('./commands/worker.ts');
    return withSharedControl(config, work);
  }

  const program = new Command('mktdata')
    .description('Marketplace data warehouse: upstream reports in, catalog tables out.')
    .version(version)
    .exitOverride()
    .showHelpAfterError()
    .option('-q, --quiet', 'no progress bars; the server logs warnings and errors only')
    .option('-v, --verbose', 'the server logs at debug level; an unexpected error prints its stack')
    .option('--home <dir>', 'home folder (default: $MKTDATA_HOME or ./.mktdata)')
    .configureHelp({ showGlobalOptions: true })
    .hook('preAction', () => {
      // (A served command's --quiet is its own; the server's environment is not changed.)
      if (served()) return;
      const { quiet, verbose } = program.opts<{ quiet?: boolean; verbose?: boolean }>();
      if (quiet) Object.assign(process.env, { MKTDATA_QUIET: '1', MKTDATA_LOG_LEVEL: 'warn' });
      if (verbose) Object.assign(process.env, { MKTDATA_DEBUG: '1', MKTDATA_LOG_LEVEL: 'debug' });
    });
  const serving = served();
  if (serving) program.configureOutput({ writeOut: serving.out, writeErr: serving.err });

  // Global options (--home, --quiet, --verbose) are read before or after the command: `mktdata --home DIR build` and
  // `mktdata build --home DIR` are the same. A served command works on the server's home.
  const home = () => served()?.wh.home ?? resolveHome(options().home);
  /** A subcommand with an example at the end of its --help. */
  const command = (parent: Command, name: string, example: string) =>
    parent.command(name).addHelpText('after', `\nExample:\n  ${example}`);
  /** A path of the command line, from the folder it was typed in. */
  const path = (file: string) => resolve(commandCwd(), file);
  command(program, 'init', 'mktdata init --home ./my-home')
    .description('create the home folder and its warehouse')
    .action(async () => {
      const dir = home();
      if (!served()) await handToServer();
      if (served()) return console.log(`${dir.root} is initialized (a running \`mktdata serve\` holds it)`);
      const { openWarehouse } = await import('../db/warehouse.ts');
      await (await openWarehouse(dir, 'init', { create: true })).close();
      console.log(`initialized ${dir.root}`);
    });

  controlCommands(program, command, withControl, withHome, secrets);
  webhookCommands(program, command, withControl);
  actionCommands(program, command, withControl);

  command(
    program,
    'ingest',
    'mktdata ingest --connection $CONN --source GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL orders-2026-03.tsv',
  )
    .description('land upstream files of one source for a connection')
    .requiredOption('--connection <id>', 'sellerOrVendorId')
    .requiredOption(
      '--source <name>',
      'source name from docs/design/INGEST.md, e.g. GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
    )
    .argument('<files...>', 'files to land')
    .action(async (files: string[], o) => {
      const { ingest } = await import('./commands/ingest.ts');
      await withHome('ingest', (wh) => ingest(wh, o.connection, o.source, files.map(path)));
    });

  const cogs = program.command('cogs').description('unit costs');
  command(cogs, 'import', 'mktdata cogs import --connection $CONN costs.csv')
    .description('upsert unit costs from a CSV with the CogsUpsertRequest row columns')
    .requiredOption('--connection <id>', 'sellerOrVendorId')
    .argument('<file>', 'CSV file: asin,sku,costCurrency,fromDate,costItemValue,costItemShippingValue,itemSupplierName')
    .action(async (file: string, o) => {
      const { importCogs } = await import('./commands/cogs.ts');
      await withHome('cogs import', (wh) => importCogs(wh, o.connection, path(file)));
    });

  command(program, 'build', 'mktdata build --select mkt_profit_by_date --from 2026-03-01 --to 2026-03-31')
    .description('run the models and publish the snapshot')
    .option('--select <tables...>', 'only these models (and what they read)')
    .option('--from <date>', 'first day of the window to rebuild', date)
    .option('--to <date>', 'last day of the window to rebuild', date)
    .option('--full-refresh', 'rebuild incremental tables whole', false)
    .action(async (o) => {
      if (o.from && o.to && o.from > o.to)
        throw new MktdataError('ERR_INPUT_INVALID', {
          where: '--from/--to',
          reason: `--from ${o.from} is after --to ${o.to}`,
        });
      const { build } = await import('./commands/build.ts');
      await withHome('build', (wh) =>
        build(wh, { select: o.select, from: o.from, to: o.to, fullRefresh: o.fullRefresh }),
      );
    });

  const backfill = (o: { from?: string; to?: string }) => {
    if (!o.from && !o.to) return undefined;
    if (!o.from || !o.to)
      throw new MktdataError('ERR_INPUT_INVALID', {
        where: '--from/--to',
        reason: 'a backfill needs both --from and --to',
      });
    if (o.from > o.to)
      throw new MktdataError('ERR_INPUT_INVALID', {
        where: '--from/--to',
        reason: `--from ${o.from} is after --to ${o.to}`,
      });
    return { from: o.from, to: o.to };
  };

  command(program, 'plan', 'mktdata plan --pipeline profit')
    .description('print the windows the next run would rebuild, per pipeline, connection and table')
    .option('--pipeline <name>', 'one pipeline (default: all, see pipelines/)')
    .option('--from <date>', 'with --to: include a backfill of these dates', date)
    .option('--to <date>', 'last day of the backfill', date)
    .addOption(new Option('--format <format>', 'output format').choices(['table', 'json']).default('table'))
    .action(async (o) => {
      const { plan } = await import('./commands/run.ts');
      await withHome('plan', (wh) => plan(wh, { pipeline: o.pipeline, backfill: backfill(o), format: o.format }));
    });

  command(program, 'run', 'mktdata run --pipeline profit --from 2026-01-01 --to 2026-01-31')
    .description(
      'fetch what the planned windows need (connections with credentials), land it and what waits in landing/, rebuild the windows, publish; prints the run ids; exits 1 unless every window was done',
    )
    .option('--pipeline <name>', 'one pipeline (default: all, see pipelines/)')
    .option('--from <date>', 'with --to: also rebuild these dates of every table (backfill)', date)
    .option('--to <date>', 'last day of the backfill', date)
    .action(async (o) => {
      const config = (await import('../scale/scale-config.ts')).scaleConfig();
      if (config && backfill(o))
        throw new MktdataError('ERR_INPUT_INVALID', {
          where: '--from/--to',
          reason: 'a backfill runs in a single home only (scale-out: not yet)',
        });
      if (config) return (await import('./commands/worker.ts')).runScaled(config, o.pipeline);
      const { run } = await import('./commands/run.ts');
      await withHome('run', (wh) => run(wh, { pipeline: o.pipeline, backfill: backfill(o) }));
    });

  command(program, 'runs', 'mktdata runs --pipeline profit --limit 3')
    .description('list recent pipeline runs with a row per (connection, table, window)')
    .option('--pipeline <name>', 'one pipeline')
    .option('--limit <n>', 'how many runs', wholeNumber, 10)
    .addOption(new Option('--format <format>', 'output format').choices(['table', 'json']).default('table'))
    .action(async (o) => {
      const config = (await import('../scale/scale-config.ts')).scaleConfig();
      if (config) return (await import('./commands/worker.ts')).shardRuns(config, o);
      const { runs } = await import('./commands/run.ts');
      await withControl('runs', (wh) => runs(wh, { pipeline: o.pipeline, limit: o.limit, format: o.format }));
    });

  command(program, 'docs', 'mktdata docs mkt_profit_by_date')
    .description(
      "a model's lineage: grain, what it reads and what reads it, the spec rules it implements (and the model where each lives), its checks; without a model, every model",
    )
    .argument('[model]', 'a model name or schema.name')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (name: string | undefined, o: { format: 'text' | 'json' }) => {
      const { loadModels } = await import('../models/load-models.ts');
      const { lineage, lineageText } = await import('../models/lineage.ts');
      const models = loadModels();
      const { formatTable } = await import('./output.ts');
      if (name) {
        const l = lineage(models, name);
        console.log(o.format === 'json' ? JSON.stringify(l, null, 2) : lineageText(l));
      } else if (o.format === 'json') {
        console.log(
          JSON.stringify(
            models.map((m) => lineage(models, m.id)),
            null,
            2,
          ),
        );
      } else {
        console.log(
          formatTable(
            ['model', 'materialized', 'rules', 'grain'],
            models.map((m) => [m.id, m.config.materialized, String(m.config.rules.length), m.config.grain]),
          ),
        );
      }
    });

  catalogCommands(program, command, readHome, withControl);
  backupCommands(program, command, home, path, withHome, handToServer);
  serverCommands(program, command, home, runCli);
  doctorCommands(program, command, home, handToServer);

  return program;
}
