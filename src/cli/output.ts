import cliProgress from 'cli-progress';
import { Option } from 'commander';
import { quiet, served } from './served.ts';

/** What `mktdata query` can print. */
export const queryFormats = ['table', 'csv', 'json'] as const;
export type QueryFormat = (typeof queryFormats)[number];

/**
 * The server's log (Fastify's pino): human-readable on a terminal (pino-pretty, in colour unless NO_COLOR is set),
 * JSON lines otherwise; at the level `--quiet` (warn) or `--verbose` (debug) set, else info.
 */
export function serverLogger(): { level: string; transport?: object } {
  const level = process.env.MKTDATA_LOG_LEVEL ?? 'info';
  if (!process.stdout.isTTY) return { level };
  return {
    level,
    transport: {
      target: 'pino-pretty',
      options: { colorize: !process.env.NO_COLOR, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' },
    },
  };
}

/**
 * A progress bar on a terminal, silence elsewhere and with `--quiet` (docs/design/ARCHITECTURE.md, "The command line").
 */
export function progress(label: string, total: number) {
  // (A command a running server runs for a client draws no bar on the server's terminal.)
  if (!process.stderr.isTTY || quiet() || served() || total < 2) return { tick: (_name: string) => {}, stop: () => {} };
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {value}/{total} {name}`, stream: process.stderr, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { name: '' });
  return { tick: (name: string) => bar.increment(1, { name }), stop: () => bar.stop() };
}

/** Renders rows as an aligned text table. */
export function formatTable(columns: string[], rows: unknown[][]): string {
  const cells = rows.map((row) => row.map((v) => (v === null || v === undefined ? 'NULL' : String(v))));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]!.length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/** The `--format table|json` option of a listing command. */
export const formatOption = () =>
  new Option('--format <format>', 'output format').choices(['table', 'json']).default('table');

/** Prints rows as an aligned table, or as a JSON array of objects. */
export function printRows(format: 'table' | 'json', columns: string[], rows: unknown[][]): void {
  console.log(
    format === 'json'
      ? JSON.stringify(
          rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i] ?? null]))),
          null,
          2,
        )
      : formatTable(columns, rows),
  );
}
