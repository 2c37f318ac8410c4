// Webhook URLs aimed at private addresses: every spelling of loopback, the private and link-local networks, the
// cloud metadata address and IPv4 inside IPv6, given to POST and PUT /exports/schedules as a string and as
// `{ url }`. Each must be refused with 400 naming the integration; a real listener on loopback, which the loopback
// URLs point at, must receive nothing (serve runs without MKTDATA_WEBHOOK_ALLOWED_NETWORKS).
import { createServer } from 'node:http';
import { API, type Answer, type Expect, type Req } from './probe-judge.ts';

export async function webhookProbes(p: {
  probe: (name: string, req: Req, expect: Expect) => Promise<Answer | undefined>;
  tally: (failure: string | undefined) => void;
  keyA: string;
  scheduleA: string;
  scheduleBody: (extra: Record<string, unknown>) => Record<string, unknown>;
  secrets: string[];
}): Promise<void> {
  const received: string[] = [];
  const listener = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    req.resume().on('end', () => res.end());
  });
  await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
  const port = (listener.address() as { port: number }).port;
  const urls = [
    `http://127.0.0.1:${port}/hook`,
    `http://localhost:${port}/hook`,
    `http://LOCALHOST:${port}/hook`,
    `http://localhost.:${port}/hook`,
    `http://127.1:${port}/hook`,
    `http://0x7f.0.0.1:${port}/hook`,
    `http://0177.0.0.1:${port}/hook`,
    `http://2130706433:${port}/hook`,
    `http://[::ffff:127.0.0.1]:${port}/hook`,
    `http://[::ffff:7f00:1]:${port}/hook`,
    `http://0.0.0.0:${port}/hook`,
    `https://127.0.0.1:${port}/hook`,
    `http://user:pass@127.0.0.1:${port}/hook`,
    'http://[::1]/',
    'http://[::]/',
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fe80::1]/',
    'http://[fd00::1]/',
    'http://100.64.0.1/',
    'http://[::ffff:a9fe:a9fe]/',
  ];
  try {
    for (const url of urls) {
      const expect: Expect = { status: [400], names: 'integrations', secrets: p.secrets, echoes: [url] };
      const body = (integrations: unknown[]) => p.scheduleBody({ name: 'webhook probe', active: false, integrations });
      await p.probe(
        `${url} in a new schedule`,
        {
          method: 'POST',
          path: `${API}/exports/schedules`,
          key: p.keyA,
          json: body(['https://hooks.example.invalid/', url]),
        },
        expect,
      );
      await p.probe(
        `{ url: ${url} } in a replaced schedule`,
        { method: 'PUT', path: `${API}/exports/schedules/${p.scheduleA}`, key: p.keyA, json: body([{ url }]) },
        expect,
      );
    }
    p.tally(received.length === 0 ? undefined : `the loopback listener received ${received.join(', ')}`);
  } finally {
    listener.close();
  }
}
