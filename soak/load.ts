// Load: 100 concurrent clients for 60 s on a loopback `mktdata serve` over the demo home, across endpoints and
// several organizations. Clients are closed loops (a request, its answer read whole, the next request):
// - 50 key-less clients read the catalog endpoints (spec/…);
// - 4 greedy organizations with 12 clients each read the key-protected endpoints as fast as they are answered (100 ms
//   after a 429) and measure the rate limit: each must be admitted 2 per second (plus the burst of 2), within 10%;
// - one polite organization's client paced at 1 request per 0.6 s must never see 429;
// - the demo organization's client creates exports (paced, honouring Retry-After), and each must complete.
// The serve process's memory (RSS) is sampled every second: flat means the last 20 s stay within 25% of the
// 10–20 s window once it has warmed up.
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Agent, request as httpRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { demoConnections, publishedDemoHome } from './homes.ts';
import { startServe, type ServeProcess } from '../test/helpers/serve.ts';

export interface LoadReport {
  seconds: number;
  clients: number;
  requests: number;
  status5xx: number;
  dropped: number;
  /** Per endpoint: requests, p50 and p99 in ms. */
  endpoints: { name: string; requests: number; p50: number; p99: number }[];
  /** Per greedy organization: requests admitted (2xx) and what the limit promises. */
  admitted: { org: string; admitted: number; promised: number }[];
  polite: { requests: number; limited: number };
  exports: { created: number; completed: number };
  memory: { warmMb: number; endMb: number; maxMb: number };
  catalogP99: number;
  /** The load generator's own event-loop delay (ms): when high, the latencies above are partly its own queueing. */
  generatorLag: { p50: number; p99: number };
  failures: string[];
}

const SECONDS = Number(process.env.SOAK_LOAD_SECONDS ?? 60);
const PER_SECOND = 2;
/** Keep-alive connections, as many as there are clients. */
const agent = new Agent({ keepAlive: true });

/**
 * One request as an HTTP client on another machine makes it (keep-alive, accepting gzip), its answer read whole but
 * decoded only when asked: the load generator shares this machine's cores with the server, so it spends as little
 * of them as it can.
 */
function send(url: string, init: { key?: string; method?: 'GET' | 'POST'; body?: unknown }) {
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  const headers = {
    'accept-encoding': 'gzip',
    ...(init.key ? { 'service-api-key': init.key } : {}),
    ...(body ? { 'content-type': 'application/json' } : {}),
  };
  return new Promise<{ status: number; retryAfter: number; text: () => string }>((resolve, reject) => {
    const req = httpRequest(url, { method: init.method ?? 'GET', headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const text = () => (res.headers['content-encoding'] === 'gzip' ? gunzipSync(bytes) : bytes).toString('utf8');
        resolve({ status: res.statusCode!, retryAfter: Number(res.headers['retry-after'] ?? 1), text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

export async function load(workDir: string, options: { log: (line: string) => void }): Promise<LoadReport> {
  const home = join(workDir, 'home');
  const { org, cli } = await publishedDemoHome(home);
  const keyOf = async (orgId: string) => cli(['keys', 'create', '--org', orgId]);
  const exporterKey = await keyOf(org);
  const politeKey = await keyOf(await cli(['org', 'create', '--name', 'Polite org']));
  const greedy: { name: string; key: string }[] = [];
  for (const name of ['Greedy 1', 'Greedy 2', 'Greedy 3', 'Greedy 4'])
    greedy.push({ name, key: await keyOf(await cli(['org', 'create', '--name', name])) });

  const server = await startServe(home, ['--no-pipelines'], { logFile: join(workDir, 'serve.log') });
  try {
    return await underLoad(server, { exporterKey, politeKey, greedy }, options);
  } finally {
    await server.stop();
  }
}

async function underLoad(
  server: ServeProcess,
  keys: { exporterKey: string; politeKey: string; greedy: { name: string; key: string }[] },
  options: { log: (line: string) => void },
): Promise<LoadReport> {
  const { exporterKey, politeKey, greedy } = keys;
  const timings = new Map<string, number[]>();
  const report: LoadReport = {
    seconds: SECONDS,
    clients: 0,
    requests: 0,
    status5xx: 0,
    dropped: 0,
    endpoints: [],
    admitted: [],
    polite: { requests: 0, limited: 0 },
    exports: { created: 0, completed: 0 },
    memory: { warmMb: 0, endMb: 0, maxMb: 0 },
    catalogP99: 0,
    generatorLag: { p50: 0, p99: 0 },
    failures: [],
  };
  /** One request, its body read whole; the status, headers and body, or null when the connection failed. */
  const call = async (
    name: string,
    path: string,
    init: { key?: string; method?: 'GET' | 'POST'; body?: unknown } = {},
  ) => {
    const started = performance.now();
    try {
      const res = await send(`${server.base}${path}`, init);
      const ms = performance.now() - started;
      report.requests++;
      if (res.status >= 500) {
        report.status5xx++;
        if (report.failures.length < 20) report.failures.push(`${name}: ${res.status} ${res.text().slice(0, 200)}`);
      }
      if (res.status !== 429) (timings.get(name) ?? timings.set(name, []).get(name)!).push(ms);
      return res;
    } catch (error) {
      report.dropped++;
      if (report.failures.length < 20) report.failures.push(`${name}: ${(error as Error).message}`);
      return null;
    }
  };

  const memory: number[] = [];
  const pid = server.child.pid!;
  const sampler = setInterval(() => {
    const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    if (rss) memory.push(Number(rss) / 1024);
  }, 1000);

  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const until = performance.now() + SECONDS * 1000;
  const running = () => performance.now() < until;
  const clients: Promise<void>[] = [];
  const sellers = demoConnections.map((c) => c.id);
  const catalog = [
    ['spec/data-scheme', '/spec/data-scheme'],
    ['spec/data-scheme?q', '/spec/data-scheme?tableName=mkt_profit_by_sku'],
    ['spec/data-scheme.md', '/spec/data-scheme.md'],
    ['spec/data-scheme/{table}.md', '/spec/data-scheme/mkt_order_items_with_cogs.md'],
    ['spec/webhook-scheme', '/spec/webhook-scheme'],
    ['spec/service_api.md', '/spec/service_api.md'],
  ] as const;
  const keyed = [
    ['util/organization', '/util/organization'],
    ['util/sellers-and-vendors', '/util/sellers-and-vendors'],
    ['exports', '/exports'],
    ['exports/sources', `/exports/sources?sellerOrVendorIds=${demoConnections[0]!.id}`],
    ['exports/schedules', '/exports/schedules'],
  ] as const;
  for (let i = 0; i < 50; i++) {
    clients.push(
      (async () => {
        for (let n = i; running(); n++) {
          const [name, path] = catalog[n % catalog.length]!;
          await call(name, path);
        }
      })(),
    );
  }
  const admitted = new Map(greedy.map((g) => [g.name, 0]));
  for (const g of greedy) {
    for (let i = 0; i < 12; i++) {
      clients.push(
        (async () => {
          for (let n = i; running(); n++) {
            const [name, path] = keyed[n % keyed.length]!;
            const res = await call(name, path, { key: g.key });
            // Only answers inside the measured minute count: one still in flight at its end was admitted after it.
            if (res && res.status !== 429 && running()) admitted.set(g.name, admitted.get(g.name)! + 1);
            // Refused, it tries again in 100 ms instead of the second Retry-After asks: 60 times over the limit still.
            if (res?.status === 429) await sleep(100);
          }
        })(),
      );
    }
  }
  clients.push(
    (async () => {
      for (let n = 0; running(); n++) {
        const started = performance.now();
        const [name, path] = keyed[n % keyed.length]!;
        const res = await call(name, path, { key: politeKey });
        report.polite.requests++;
        if (res?.status === 429) report.polite.limited++;
        await sleep(Math.max(0, 600 - (performance.now() - started)));
      }
    })(),
  );
  const created: string[] = [];
  clients.push(
    (async () => {
      const sources = await call('exports/sources', `/exports/sources?sellerOrVendorIds=${sellers.join(',')}`, {
        key: exporterKey,
      });
      const source = (JSON.parse(sources!.text()).sources as { id: string; tableName: string }[]).find(
        (s) => s.tableName === 'mkt_order_items_with_cogs',
      )!;
      while (running()) {
        const res = await call('POST exports', '/exports', {
          key: exporterKey,
          method: 'POST',
          body: {
            sellerOrVendorIds: sellers,
            sourceId: source.id,
            from: '2026-09-01T00:00:00.000Z',
            to: '2026-10-01T00:00:00.000Z',
            outputType: created.length % 2 ? 'CSV' : 'PARQUET',
          },
        });
        if (res?.status === 202) created.push(JSON.parse(res.text()).id);
        else if (res && report.failures.length < 20)
          report.failures.push(`POST exports: ${res.status} ${res.text().slice(0, 200)}`);
        await sleep(res?.status === 429 ? res.retryAfter * 1000 : 2000);
      }
    })(),
  );
  report.clients = clients.length;
  options.log(`load: ${clients.length} clients for ${SECONDS} s against ${server.base}`);
  await Promise.all(clients);
  clearInterval(sampler);
  lag.disable();
  report.generatorLag = { p50: lag.percentile(50) / 1e6, p99: lag.percentile(99) / 1e6 };

  // Every export created under load completes (polled politely once the load is over).
  report.exports.created = created.length;
  const waitUntil = performance.now() + 120_000;
  for (const id of created) {
    for (;;) {
      const res = await call('exports/{id}', `/exports/${id}`, { key: exporterKey });
      const status = res?.status === 200 ? JSON.parse(res.text()).status : undefined;
      if (status === 'COMPLETED') {
        report.exports.completed++;
        break;
      }
      if (status === 'FAILED' || performance.now() > waitUntil) {
        report.failures.push(`export ${id}: ${status ?? res?.status}`);
        break;
      }
      await sleep(600);
    }
  }

  for (const [name, ms] of [...timings].sort(([a], [b]) => a.localeCompare(b))) {
    const sorted = ms.sort((a, b) => a - b);
    report.endpoints.push({ name, requests: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) });
  }
  report.catalogP99 = Math.max(...report.endpoints.filter((e) => e.name.startsWith('spec/')).map((e) => e.p99));
  const promised = SECONDS * PER_SECOND + PER_SECOND;
  report.admitted = greedy.map((g) => ({ org: g.name, admitted: admitted.get(g.name)!, promised }));
  const warm = memory.slice(10, 20);
  const last = memory.slice(-20);
  report.memory = {
    warmMb: warm.length ? Math.max(...warm) : 0,
    endMb: memory.at(-1) ?? 0,
    maxMb: Math.max(0, ...last),
  };
  return report;
}
