import { spawnSync } from 'node:child_process';

/** One sample of a Prometheus text exposition: its name, labels and value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * The samples of a Prometheus text exposition (format 0.0.4), read line by line as the format defines them: comments
 * skipped, `name{label="value",...} number`. A line that is neither throws, naming it.
 */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    // Prometheus reads values as Go's ParseFloat does: NaN and Inf in any case (prom-client writes `Nan`).
    const value = /^nan$/i.test(m[3]!)
      ? NaN
      : /^[+-]?inf$/i.test(m[3]!)
        ? m[3]!.startsWith('-')
          ? -Infinity
          : Infinity
        : Number(m[3]);
    if (Number.isNaN(value) && !/^nan$/i.test(m[3]!)) throw new Error(`not a sample value: ${line}`);
    samples.push({ name: m[1]!, labels, value });
  }
  return samples;
}

/** The value of the sample of that name whose labels include `labels`; 0 when there is none (a counter not yet born). */
export function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}

/** Whether Prometheus' promtool is on PATH (Debian's package `prometheus`; CI installs it). */
export const hasPromtool = () => spawnSync('promtool', ['--version']).status === 0;

/** Runs `promtool ARGS` with `input` on its standard input; its exit code and what it printed. */
export function promtool(args: string[], input = ''): { code: number | null; output: string } {
  const r = spawnSync('promtool', args, { input, encoding: 'utf8' });
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}

/**
 * `promtool check metrics` on an exposition: the lines of its complaints other than prom-client's own default
 * gauges named `*_total` (`nodejs_active_handles_total` and its kind, which promtool's lint flags), which mktdata
 * does not name. Throws when promtool cannot parse it at all.
 */
export function promtoolComplaints(text: string): string[] {
  const r = promtool(['check', 'metrics'], text);
  // 0: clean; 3: lint problems only; anything else: the exposition did not parse.
  if (r.code !== 0 && r.code !== 3) throw new Error(`promtool check metrics failed (${r.code}): ${r.output}`);
  return r.output
    .split('\n')
    .filter((l) => l.trim() !== '')
    .filter((l) => !/^mktdata_nodejs_active_\w+_total non-counter metrics should not have "_total" suffix$/.test(l));
}
