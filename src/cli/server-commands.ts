import { InvalidArgumentError, type Command } from 'commander';
import type { Home } from '../home.ts';
import { date, wholeNumber, type CommandFactory } from './arguments.ts';

/**
 * The long-running commands: `mktdata serve`, `mcp`, `worker`, `demo` and `fake-marketplace` (their modules load when they
 * run). `runCli` runs a command handed to the server over its admin channel.
 */
export function serverCommands(
  program: Command,
  command: CommandFactory,
  home: () => Home,
  runCli: (argv: string[]) => Promise<number>,
): void {
  command(program, 'serve', 'mktdata serve --port 8080 --host 0.0.0.0')
    .description(
      'serve the /api/v1 HTTP API and the console, run the pipelines at their refresh times, and run the commands handed to it, until stopped (Ctrl-C)',
    )
    .option('--port <port>', 'TCP port', wholeNumber, 8080)
    .option('--host <host>', 'interface to listen on (0.0.0.0 for every interface)', '127.0.0.1')
    .option('--requests-per-second <n>', 'rate limit per organization over key-protected endpoints', wholeNumber, 2)
    .option('--export-workers <n>', 'exports written at the same time', wholeNumber, 2)
    .option('--export-retention-hours <n>', 'hours a finished export file stays downloadable', wholeNumber, 24)
    .option(
      '--signed-url-minutes <n>',
      'minutes a signed link (export download from /raw, file upload and download) stays valid',
      wholeNumber,
      15,
    )
    .option('--no-pipelines', 'do not run the pipelines at their refresh times')
    .option(
      '--grace-seconds <n>',
      'on SIGTERM or Ctrl-C, how long to wait for requests, exports and the pipeline run in progress before exiting anyway',
      wholeNumber,
      30,
    )
    .action(async (o) => (await import('./commands/serve.ts')).serve(home(), { ...o, runCli }));

  command(program, 'mcp', 'MKTDATA_API_KEY=… mktdata mcp --home /var/lib/mktdata')
    .description(
      "serve MCP on stdin/stdout for a local AI assistant, as the organization of MKTDATA_API_KEY: relayed to the home's running `serve` (or --url), else served by a server it starts until the assistant disconnects (docs/mcp.md)",
    )
    .option('--url <url>', "a running mktdata's URL whose /mcp to relay to (default: the home's `serve`)")
    .option('--requests-per-second <n>', 'rate limit of the server it starts when none serves the home', wholeNumber, 2)
    .action(async (o) => (await import('./commands/mcp.ts')).mcp(home(), { ...o, runCli }));

  command(
    program,
    'worker',
    'MKTDATA_DATABASE_URL=postgres://… MKTDATA_SHARED_DIR=/mnt/mktdata mktdata worker --work-dir /var/lib/mktdata',
  )
    .description(
      'scale-out: hold a share of the shards and run their queued pipeline runs until stopped (docs/scale-out.md)',
    )
    .requiredOption('--work-dir <dir>', "this worker's own disk, where the warehouses of its shards live")
    .option('--id <name>', 'its name in leases and runs (default: host name and process id)')
    .option(
      '--lease-seconds <n>',
      "how long a shard stays held without renewal: a dead worker's shards are taken over after it",
      wholeNumber,
      30,
    )
    .option('--poll-seconds <n>', 'how often an idle shard queue is asked for a job', wholeNumber, 2)
    .option('--no-pipelines', 'do not queue the pipelines at their refresh times (runs come from `mktdata run` only)')
    .option('--port <port>', 'answer /health and /ready on this TCP port (no listener without it)', wholeNumber)
    .option('--host <host>', 'interface of the /health and /ready listener', '127.0.0.1')
    .option(
      '--grace-seconds <n>',
      'on SIGTERM or Ctrl-C, how long to wait for the shard runs in progress before exiting anyway',
      wholeNumber,
      30,
    )
    .action(async (o) => (await import('./commands/worker.ts')).worker(o));

  command(program, 'demo', 'mktdata demo --port 8081')
    .description(
      'start a fake marketplace with two demo sellers, connect them, fetch their first load through the connectors, build and publish it, then serve the API and the console until stopped',
    )
    .option('--port <port>', 'TCP port of the API', wholeNumber, 8080)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .action(async (o) =>
      (await import('./commands/demo.ts')).demo(home(), { host: o.host, port: o.port, requestsPerSecond: 2, runCli }),
    );

  program
    .command('fake-marketplace')
    .addHelpText('after', '\nExample:\n  mktdata fake-marketplace --port 8090 --speed 60 --start 2026-11-01T00:00:00Z')
    .description(
      'serve a fake marketplace on loopback (LWA, consent, SP-API, Ads API; demo sellers) to try the connectors without a real account',
    )
    .option('--port <port>', 'TCP port', wholeNumber, 8090)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option(
      '--speed <n>',
      'clock speed: clock seconds per real second (rate limits and report processing run on it)',
      (v) => {
        const n = Number(v);
        if (!(n > 0)) throw new InvalidArgumentError(`not a positive number: ${v}`);
        return n;
      },
      1,
    )
    .option('--start <iso>', "the time the fake's clock starts at (default: now)")
    .option('--opened-on <date>', 'the day the demo sellers opened their accounts', date)
    .option('--no-throttling', 'answer requests over the documented rate limits instead of refusing them with 429')
    .action(async (o) =>
      (await (await import('../demo/fake-marketplace.ts')).loadFakeMarketplace()).serveFakeMarketplace({
        host: o.host,
        port: o.port,
        speed: o.speed,
        start: o.start,
        openedOn: o.openedOn,
        throttling: o.throttling,
      }),
    );
}
