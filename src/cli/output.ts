import cliProgress from 'cli-progress';

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
  return { level, transport: { target: 'pino-pretty', options: { colorize: !process.env.NO_COLOR, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } };
}

/** A progress bar on a terminal, silence elsewhere and with `--quiet` (ARCHITECTURE.md, "The command line"). */
export function progress(label: string, total: number) {
  if (!process.stderr.isTTY || process.env.MKTDATA_QUIET || total < 2) return { tick: (_name: string) => {}, stop: () => {} };
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
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}
