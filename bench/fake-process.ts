// The fake marketplace in a process of its own (`mktdata fake-marketplace`), for a benchmark: generating the
// marketplace's documents then costs the measured process nothing, as a remote marketplace would not.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { once } from 'node:events';
import { scaledClock, type Clock } from '../src/time/clock.ts';
import type { RequestLogEntry } from '@mktdata/fake-marketplace';

export interface FakeProcess {
  url: string;
  /** `export NAME=value` lines it printed: the connector environment. */
  env: Record<string, string>;
  /** The same clock as the fake's (speed, start and real start it printed). */
  clock: Clock;
  /** Refresh tokens by seller id and API, and the ads profile. */
  tokens: Map<string, { sp: string; ads?: { token: string; profile: string } }>;
  /** Its request log from entry `from` on. */
  log(from?: number): Promise<RequestLogEntry[]>;
  close(): Promise<void>;
}

export async function startFakeProcess(options: {
  speed: number;
  start: string;
  openedOn: string;
}): Promise<FakeProcess> {
  const child = spawn(
    'node',
    [
      'bin/mktdata.js',
      'fake-marketplace',
      '--port',
      '0',
      '--speed',
      String(options.speed),
      '--start',
      options.start,
      '--opened-on',
      options.openedOn,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  // The lowest scheduling priority: on a machine of two cores, the marketplace's document generation gives way to the
  // measured process, as a remote marketplace's would not compete with it at all.
  setPriority(child.pid!, 19);
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => /A3ACMEDE0SELLER[\s\S]*ads /.test(out) && (clearInterval(timer), resolve()), 20);
    child.once(
      'exit',
      (code) => (clearInterval(timer), reject(new Error(`fake-marketplace exited with ${code}: ${out}`))),
    );
  });
  const env = Object.fromEntries([...out.matchAll(/^export (\w+)='([^']*)'$/gm)].map((m) => [m[1]!, m[2]!]));
  const tokens = new Map<string, { sp: string; ads?: { token: string; profile: string } }>();
  for (const m of out.matchAll(/^(A\w+) \S+ [^\n]*\n {2}sp-api {2}(\S+)\n(?: {2}ads {5}(\S+) \(profile (\d+)\))?/gm)) {
    tokens.set(m[1]!, { sp: m[2]!, ...(m[3] ? { ads: { token: m[3], profile: m[4]! } } : {}) });
  }
  const url = env.MKTDATA_MARKETPLACE_URL!;
  return {
    url,
    env,
    clock: scaledClock(
      Number(env.MKTDATA_CLOCK_SPEED),
      Date.parse(env.MKTDATA_CLOCK_START!),
      Number(env.MKTDATA_CLOCK_REAL_START),
    ),
    tokens,
    log: async (from = 0) => (await (await fetch(`${url}/_fake/log?from=${from}`)).json()) as RequestLogEntry[],
    close: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
