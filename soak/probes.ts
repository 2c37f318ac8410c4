// Isolation and injection: probes of every `/api/v1` endpoint on a loopback `mktdata serve` over the demo home,
// sent as a client on another machine sends them (raw paths through node:http, so that `../` and `%2e%2e` reach the
// server as written). Two organizations: A (the demo, with an export, an export schedule and two connections) and B
// (one connection of its own). Every request is one probe; it passes when the answer has the expected status and
// - carries none of the other organization's ids, names or file contents (an error message may echo the id the
//   request itself gave, as "export X not found" is designed to);
// - is never a 5xx, never a stack trace, a path of the project, `node_modules` or an SQL error text;
// - on a 4xx of `/api/v1` (but the documented Markdown pages and downloads) is the JSON error body of
// docs/design/API.md.
// Groups: isolation (B's key on A's ids), SQL injection (A's key, payloads in every field and query parameter),
// path traversal (every path parameter), the other resources (probe-resources.ts), bodies (oversized, deeply nested,
// malformed, wrong type), signed download links (tampered and expired), webhook URLs aimed at private addresses
// (probe-webhooks.ts), and once per 4xx
// status seen: the error body's `error` is its reason phrase.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { join, resolve } from 'node:path';
import { publishedDemoHome } from './homes.ts';
import { resourceProbes } from './probe-resources.ts';
import { webhookProbes } from './probe-webhooks.ts';
import { startServe, type ServeProcess } from '../test/helpers/serve.ts';
import {
  API,
  PAYLOADS,
  TABLE,
  fileContents,
  judge,
  s4xx,
  send,
  sha256,
  short,
  sleep,
  wrongPhrase,
  type Answer,
  type Expect,
  type Method,
  type ProbesReport,
  type Req,
} from './probe-judge.ts';

export async function probes(workDir: string, options: { log: (line: string) => void }): Promise<ProbesReport> {
  const home = join(workDir, 'home');
  const { org: orgA, cli } = await publishedDemoHome(home);
  const keyA = await cli(['keys', 'create', '--org', orgA]);
  const orgB = await cli(['org', 'create', '--name', 'B', '--tokens', '1000000']);
  const connB = await cli([
    'connections',
    'add',
    '--org',
    orgB,
    '--name',
    'Probe B connection',
    '--marketplace',
    'ATVPDKIKX0DER',
  ]);
  const keyB = await cli(['keys', 'create', '--org', orgB]);
  const setup = { home, orgA, orgB, keyA, keyB, connB };

  const report: ProbesReport = { probes: 0, passed: 0, failures: [] };
  let server = await startServe(home, ['--no-pipelines', '--requests-per-second', '1000'], {
    logFile: join(workDir, 'serve.log'),
  });
  try {
    await probeAll(
      () => server,
      async (args) => {
        await server.stop();
        // Its own log: startServe reads the first URL its log file shows.
        server = await startServe(home, ['--no-pipelines', '--requests-per-second', '1000', ...args], {
          logFile: join(workDir, 'serve-2.log'),
        });
      },
      setup,
      report,
      options,
    );
  } finally {
    await server.stop();
  }
  return report;
}

async function probeAll(
  server: () => ServeProcess,
  restart: (args: string[]) => Promise<void>,
  s: { home: string; orgA: string; orgB: string; keyA: string; keyB: string; connB: string },
  report: ProbesReport,
  options: { log: (line: string) => void },
) {
  const { keyA, keyB, connB } = s;
  const origin = () => new URL(server().base).origin;
  const call = (req: Req) => send(origin(), req);
  // Keys and their stored hashes: no answer shows either.
  const alwaysSecret = [keyA, keyB, sha256(keyA), sha256(keyB)];
  const groupCounts = new Map<string, { probes: number; passed: number }>();
  let group = '';
  /** Counts one probe of the current group; a failure is its line. */
  const tally = (failure: string | undefined) => {
    const counts = groupCounts.get(group) ?? groupCounts.set(group, { probes: 0, passed: 0 }).get(group)!;
    report.probes++;
    counts.probes++;
    if (failure === undefined) {
      report.passed++;
      counts.passed++;
    } else report.failures.push(`${group} ${failure}`);
  };
  /** Per 4xx status answered: its first example whose `error` was not the reason phrase (one probe per status). */
  const phrased = new Map<number, string | undefined>();
  const notePhrase = (name: string, req: Req, answer: Answer, expect: Expect) => {
    if (
      answer.status < 400 ||
      answer.status >= 500 ||
      !req.path.startsWith(`${API}/`) ||
      expect.noShape ||
      answer.json === undefined
    )
      return;
    const wrong = wrongPhrase(req, answer, expect);
    if (!phrased.has(answer.status) || (phrased.get(answer.status) === undefined && wrong !== undefined)) {
      phrased.set(
        answer.status,
        wrong === undefined ? undefined : `${label(name, req)} → ${answer.status} with error ${JSON.stringify(wrong)}`,
      );
    }
  };
  const label = (name: string, req: Req) =>
    `${name}: ${req.method ?? 'GET'} ${short(req.path, 140)}${req.key === keyB ? ' (key B)' : req.key === keyA ? ' (key A)' : ''}`;
  const probe = async (name: string, req: Req, expect: Expect): Promise<Answer | undefined> => {
    let answer: Answer;
    try {
      answer = await call(req);
    } catch (error) {
      tally(`${label(name, req)} → no answer: ${(error as Error).message}`);
      return undefined;
    }
    const reasons = judge(req, answer, expect, alwaysSecret);
    notePhrase(name, req, answer, expect);
    tally(
      reasons.length === 0
        ? undefined
        : `${label(name, req)} → ${answer.status} ${short(answer.text.replace(/\s+/g, ' '), 300)}: ${reasons.join('; ')}`,
    );
    return answer;
  };
  /** A setup request that must answer one status; its JSON body. */
  const must = async (what: string, req: Req, status: number): Promise<Record<string, unknown>> => {
    const answer = await call(req);
    if (answer.status !== status)
      throw new Error(
        `${what}: ${req.method ?? 'GET'} ${req.path} answered ${answer.status} ${answer.text.slice(0, 300)}`,
      );
    return (answer.json ?? {}) as Record<string, unknown>;
  };
  const waitExport = async (id: string, key = keyA): Promise<Record<string, unknown>> => {
    for (const until = Date.now() + 60_000; ;) {
      const body = await must(`export ${id}`, { path: `${API}/exports/${id}`, key }, 200);
      if (body.status !== 'PENDING' && body.status !== 'IN_PROGRESS') return body;
      if (Date.now() > until) throw new Error(`export ${id} still ${body.status} after 60 s`);
      await sleep(200);
    }
  };

  // --- A's resources, made through the API.
  const connsA = (await must('A lists its sellers', { path: `${API}/util/sellers-and-vendors`, key: keyA }, 200))
    .items as { sellerOrVendorId: string; name: string }[];
  const connIdsA = connsA.map((c) => c.sellerOrVendorId);
  const sources = await must(
    'A lists its sources',
    { path: `${API}/exports/sources?sellerOrVendorIds=${connIdsA.join(',')}`, key: keyA },
    200,
  );
  const sourceId = (sources.sources as { id: string; tableName: string }[]).find((x) => x.tableName === TABLE)!.id;
  const exportBody = { sellerOrVendorIds: connIdsA, sourceId, from: '2026-09-01', to: '2026-10-01', outputType: 'CSV' };
  const exportA = String(
    (await must('A creates an export', { method: 'POST', path: `${API}/exports`, key: keyA, json: exportBody }, 202))
      .id,
  );
  const doneA = await waitExport(exportA);
  if (doneA.status !== 'COMPLETED' || !(Number(doneA.rowCount) > 0))
    throw new Error(`A's export ended ${doneA.status} with ${doneA.rowCount} rows`);
  const raw = await call({ path: `${API}/exports/${exportA}/raw`, key: keyA });
  const location = String(raw.headers.location ?? '');
  if (raw.status !== 302 || !location) throw new Error(`A's /raw answered ${raw.status} ${raw.text.slice(0, 200)}`);
  const fileA = await call({ path: new URL(location).pathname + new URL(location).search });
  if (fileA.status !== 200) throw new Error(`A's signed link answered ${fileA.status}`);
  // A's file contents: its order ids (nowhere in B's answers).
  const orderIds = [...new Set(fileA.text.match(/\b\d{3}-\d{7}-\d{7}\b/g) ?? [])].slice(0, 5);
  if (orderIds.length === 0) throw new Error(`A's export has no order ids: ${fileA.text.slice(0, 300)}`);
  const scheduleName = `A probe schedule ${randomUUID().slice(0, 8)}`;
  const scheduleBody = (ids: string[], extra: Record<string, unknown> = {}) => ({
    name: scheduleName,
    sellerOrVendorIds: ids,
    sourceId,
    cron: '0 0 1 1 *',
    timezone: 'UTC',
    relativePeriod: { lastDays: 30 },
    outputType: 'CSV',
    ...extra,
  });
  const scheduleA = String(
    (
      await must(
        'A creates a schedule',
        { method: 'POST', path: `${API}/exports/schedules`, key: keyA, json: scheduleBody(connIdsA) },
        201,
      )
    ).id,
  );
  const orgNameA = String(
    (await must('A reads its organization', { path: `${API}/util/organization`, key: keyA }, 200)).name,
  );
  options.log(
    `probes: A's export ${exportA} (${doneA.rowCount} rows), schedule ${scheduleA}, connections ${connIdsA.join(', ')}`,
  );

  const secretsOfA = [
    s.orgA,
    orgNameA,
    ...connIdsA,
    ...connsA.map((c) => c.name),
    exportA,
    scheduleA,
    scheduleName,
    ...orderIds,
    location.split('signature=')[1] ?? '',
  ];
  const secretsOfB = [s.orgB, connB, 'Probe B connection'];
  const json = (answer: Answer) => (answer.json ?? {}) as Record<string, unknown>;
  const items = (answer: Answer) => (json(answer).items ?? []) as Record<string, unknown>[];
  const none = (answer: Answer) =>
    items(answer).length === 0 && json(answer).totalCount === 0 ? undefined : `lists ${items(answer).length} item(s)`;

  // --- 1. Isolation: B's key on A's ids.
  group = 'isolation';
  const B = (expect: Expect, ...echoes: string[]): Expect => ({ ...expect, secrets: secretsOfA, echoes });
  const future = Math.floor(Date.now() / 1000) + 3600;
  await probe("A's export", { path: `${API}/exports/${exportA}`, key: keyB }, B({ status: [404] }, exportA));
  await probe(
    "A's export, upper case",
    { path: `${API}/exports/${exportA.toUpperCase()}`, key: keyB },
    B({ status: [404] }, exportA.toUpperCase()),
  );
  await probe(
    "A's export, NUL after",
    { path: `${API}/exports/${exportA}%00`, key: keyB },
    B({ status: [400, 404] }, exportA),
  );
  await probe(
    "A's export, space after",
    { path: `${API}/exports/${exportA}%20`, key: keyB },
    B({ status: [404] }, exportA),
  );
  await probe(
    "delete A's export",
    { method: 'DELETE', path: `${API}/exports/${exportA}`, key: keyB },
    B({ status: [404] }, exportA),
  );
  await probe("A's export /raw", { path: `${API}/exports/${exportA}/raw`, key: keyB }, B({ status: [404] }, exportA));
  await probe(
    "A's export /download unsigned",
    { path: `${API}/exports/${exportA}/download`, key: keyB },
    B({ status: [400, 403, 404] }, exportA),
  );
  await probe(
    "A's export /download forged",
    { path: `${API}/exports/${exportA}/download?expires=${future}&signature=${'0'.repeat(64)}`, key: keyB },
    B({ status: [403, 404] }, exportA),
  );
  await probe(
    "A's export in exportIds",
    { path: `${API}/exports?exportIds=${exportA}`, key: keyB },
    B({ status: [200], check: none }),
  );
  await probe(
    "A's exports in exportIds, repeated",
    { path: `${API}/exports?exportIds=${exportA}&exportIds=${exportA}`, key: keyB },
    B({ status: [200], check: none }),
  );
  await probe('list exports', { path: `${API}/exports`, key: keyB }, B({ status: [200], check: none }));
  for (const [i, id] of connIdsA.entries()) {
    await probe(
      `sources of A's connection ${i + 1}`,
      { path: `${API}/exports/sources?sellerOrVendorIds=${id}`, key: keyB },
      B({ status: [404] }, id),
    );
    await probe(
      `sources of B's and A's connection ${i + 1}`,
      { path: `${API}/exports/sources?sellerOrVendorIds=${connB}&sellerOrVendorIds=${id}`, key: keyB },
      B({ status: [404] }, id),
    );
    await probe(
      `export of A's connection ${i + 1}`,
      { method: 'POST', path: `${API}/exports`, key: keyB, json: { ...exportBody, sellerOrVendorIds: [id] } },
      B({ status: [404] }, id),
    );
    await probe(
      `export of B's and A's connection ${i + 1}`,
      { method: 'POST', path: `${API}/exports`, key: keyB, json: { ...exportBody, sellerOrVendorIds: [connB, id] } },
      B({ status: [404] }, id),
    );
    await probe(
      `schedule of A's connection ${i + 1}`,
      { method: 'POST', path: `${API}/exports/schedules`, key: keyB, json: scheduleBody([id], { name: 'B schedule' }) },
      B({ status: [404] }, id),
    );
    await probe(
      `schedule of B's and A's connection ${i + 1}`,
      {
        method: 'POST',
        path: `${API}/exports/schedules`,
        key: keyB,
        json: scheduleBody([connB, id], { name: 'B schedule' }),
      },
      B({ status: [404] }, id),
    );
  }
  await probe(
    "sources of both A's connections",
    { path: `${API}/exports/sources?sellerOrVendorIds=${connIdsA.join(',')}`, key: keyB },
    B({ status: [404] }, ...connIdsA),
  );
  await probe(
    "A's schedule",
    { path: `${API}/exports/schedules/${scheduleA}`, key: keyB },
    B({ status: [404] }, scheduleA),
  );
  await probe(
    "replace A's schedule",
    {
      method: 'PUT',
      path: `${API}/exports/schedules/${scheduleA}`,
      key: keyB,
      json: scheduleBody([connB], { name: 'B took it' }),
    },
    B({ status: [404] }, scheduleA),
  );
  await probe(
    "replace A's schedule with A's connections",
    {
      method: 'PUT',
      path: `${API}/exports/schedules/${scheduleA}`,
      key: keyB,
      json: scheduleBody(connIdsA, { name: 'B took it' }),
    },
    B({ status: [404] }, scheduleA, ...connIdsA),
  );
  await probe(
    "delete A's schedule",
    { method: 'DELETE', path: `${API}/exports/schedules/${scheduleA}`, key: keyB },
    B({ status: [404] }, scheduleA),
  );
  await probe(
    "A's schedule /latest",
    { path: `${API}/exports/schedules/${scheduleA}/latest`, key: keyB },
    B({ status: [404] }, scheduleA),
  );
  await probe('list schedules', { path: `${API}/exports/schedules`, key: keyB }, B({ status: [200], check: none }));
  await probe(
    'list active schedules',
    { path: `${API}/exports/schedules?active=true`, key: keyB },
    B({ status: [200], check: none }),
  );
  await probe(
    'list sellers',
    { path: `${API}/util/sellers-and-vendors`, key: keyB },
    B({
      status: [200],
      check: (a) =>
        items(a).length === 1 && items(a)[0]!.sellerOrVendorId === connB
          ? undefined
          : `lists ${items(a)
              .map((i) => i.sellerOrVendorId)
              .join(', ')}`,
    }),
  );
  await probe(
    "sellers named like A's",
    { path: `${API}/util/sellers-and-vendors?query=Soak`, key: keyB },
    B({ status: [200], check: none }),
  );
  await probe(
    "sellers by A's connection id",
    { path: `${API}/util/sellers-and-vendors?query=${connIdsA[0]}`, key: keyB },
    B({ status: [200], check: none }),
  );
  await probe(
    "sellers in A's DE marketplace",
    { path: `${API}/util/sellers-and-vendors?marketplaceCountryCode=DE`, key: keyB },
    B({ status: [200], check: none }),
  );
  await probe(
    'organization',
    { path: `${API}/util/organization`, key: keyB },
    B({
      status: [200],
      check: (a) => (json(a).id === s.orgB ? undefined : `answers organization ${String(json(a).id)}`),
    }),
  );
  await probe("A's export without a key", { path: `${API}/exports/${exportA}` }, B({ status: [401] }));
  await probe(
    "A's export with A's key hash as key",
    { path: `${API}/exports/${exportA}`, key: sha256(keyA) },
    B({ status: [401] }),
  );

  // --- 2. SQL injection: A's key, payloads in every field and query parameter.
  group = 'injection';
  const A = (expect: Expect, ...echoes: string[]): Expect => ({ ...expect, secrets: secretsOfB, echoes });
  const injected: { name: string; id: string }[] = [];
  const post = async (name: string, body: Record<string, unknown>, expect: Expect) => {
    const answer = await probe(name, { method: 'POST', path: `${API}/exports`, key: keyA, json: body }, expect);
    if (answer?.status === 202) injected.push({ name, id: String(json(answer).id) });
  };
  // A control: a filter with a real value matches rows, so that the payloads' zero rows mean something.
  await post(
    'control filter (a real order id)',
    { ...exportBody, filters: { rules: [{ field: 'mkt_order_id', operator: 'in', value: [orderIds[0]] }] } },
    A({ status: [202] }),
  );
  const controlExport = injected.pop();
  for (const [n, p] of PAYLOADS.entries()) {
    const tag = `payload ${n + 1}`;
    const rule = (rule: Record<string, unknown>) => ({ ...exportBody, filters: { combinator: 'and', rules: [rule] } });
    await post(
      `${tag} in filters value (=, sku)`,
      rule({ field: 'sku', operator: '=', value: p }),
      A({ status: [202] }, p),
    );
    await post(
      `${tag} in filters value (contains, product_name)`,
      rule({ field: 'product_name', operator: 'contains', value: p }),
      A({ status: [202] }, p),
    );
    await post(
      `${tag} in filters value (in, mkt_order_id)`,
      rule({ field: 'mkt_order_id', operator: 'in', value: [p, `${p} `] }),
      A({ status: [202] }, p),
    );
    await post(
      `${tag} in having value (=, sku grouped)`,
      {
        ...exportBody,
        groupBy: ['sku'],
        aggregations: [{ column: 'quantity', aggregation: 'sum' }],
        having: { rules: [{ field: 'sku', operator: '=', value: p }] },
      },
      A({ status: [202] }, p),
    );
    await post(
      `${tag} in filters value (=, DATE column)`,
      rule({ field: 'date', operator: '=', value: p }),
      A({ status: [400], names: 'value' }, p),
    );
    await post(
      `${tag} in filters value (>, NUMBER column)`,
      rule({ field: 'quantity', operator: '>', value: p }),
      A({ status: [400], names: 'value' }, p),
    );
    await post(
      `${tag} in filters field`,
      rule({ field: p, operator: '=', value: 'x' }),
      A({ status: [400], names: 'field' }, p),
    );
    await post(
      `${tag} in filters operator`,
      rule({ field: 'sku', operator: p, value: 'x' }),
      A({ status: [400], names: 'operator' }, p),
    );
    await post(`${tag} in columns`, { ...exportBody, columns: ['sku', p] }, A({ status: [400], names: 'columns' }, p));
    await post(`${tag} in groupBy`, { ...exportBody, groupBy: [p] }, A({ status: [400], names: 'groupBy' }, p));
    await post(
      `${tag} in aggregations column`,
      { ...exportBody, aggregations: [{ column: p, aggregation: 'count' }] },
      A({ status: [400], names: 'aggregations' }, p),
    );
    await post(
      `${tag} in aggregations alias`,
      { ...exportBody, aggregations: [{ column: 'quantity', aggregation: 'sum', alias: p }] },
      A({ status: [400], names: 'alias' }, p),
    );
    await post(
      `${tag} in having field`,
      { ...exportBody, groupBy: ['sku'], having: { rules: [{ field: p, operator: '=', value: 'x' }] } },
      A({ status: [400], names: 'having' }, p),
    );
    await post(
      `${tag} in orderByColumn`,
      { ...exportBody, orderByColumn: p },
      A({ status: [400], names: 'orderByColumn' }, p),
    );
    await post(
      `${tag} in orderByDirection`,
      { ...exportBody, orderByColumn: 'sku', orderByDirection: p },
      A({ status: [400], names: 'orderByDirection' }, p),
    );
    await post(`${tag} in sourceId`, { ...exportBody, sourceId: p }, A({ status: [400], names: 'sourceId' }, p));
    await post(
      `${tag} in tableName`,
      { ...exportBody, sourceId: undefined, tableName: p },
      A({ status: [400, 404] }, p),
    );
    await post(
      `${tag} in sellerOrVendorIds`,
      { ...exportBody, sellerOrVendorIds: [connIdsA[0], p] },
      A({ status: [404] }, p),
    );
    await post(`${tag} in from`, { ...exportBody, from: p }, A({ status: [400], names: 'from' }, p));
    await post(`${tag} in outputType`, { ...exportBody, outputType: p }, A({ status: [400], names: 'outputType' }, p));

    const schedule = (name: string, body: Record<string, unknown>, expect: Expect) =>
      probe(name, { method: 'POST', path: `${API}/exports/schedules`, key: keyA, json: body }, expect);
    const inactive = (extra: Record<string, unknown>) =>
      scheduleBody(connIdsA, { name: `injected ${n + 1}`, active: false, ...extra });
    const stored = await schedule(
      `${tag} in schedule filters value`,
      inactive({ filters: { rules: [{ field: 'sku', operator: '=', value: p }] } }),
      A({ status: [201] }, p),
    );
    const storedId = stored?.status === 201 ? String(json(stored).id) : randomUUID();
    const replace = (name: string, body: unknown, expect: Expect) =>
      probe(name, { method: 'PUT', path: `${API}/exports/schedules/${storedId}`, key: keyA, json: body }, expect);
    await replace(
      `${tag} in replaced schedule groupBy`,
      inactive({ groupBy: [p] }),
      A({ status: [400], names: 'groupBy' }, p),
    );
    await replace(
      `${tag} in replaced schedule filters field`,
      inactive({ filters: { rules: [{ field: p, operator: '=', value: 'x' }] } }),
      A({ status: [400], names: 'field' }, p),
    );
    await replace(
      `${tag} as replaced schedule name`,
      inactive({ name: p }),
      A(
        {
          status: [200],
          check: (a) => (json(a).name === p ? undefined : `stored name ${JSON.stringify(json(a).name)}`),
        },
        p,
      ),
    );
    await schedule(
      `${tag} as schedule name`,
      inactive({ name: p }),
      A(
        {
          status: [201],
          check: (a) => (json(a).name === p ? undefined : `stored name ${JSON.stringify(json(a).name)}`),
        },
        p,
      ),
    );
    await schedule(`${tag} in schedule columns`, inactive({ columns: [p] }), A({ status: [400], names: 'columns' }, p));
    await schedule(
      `${tag} in schedule orderByColumn`,
      inactive({ orderByColumn: p }),
      A({ status: [400], names: 'orderByColumn' }, p),
    );
    await schedule(`${tag} in schedule cron`, inactive({ cron: p }), A({ status: [400], names: 'cron' }, p));
    await schedule(
      `${tag} in schedule timezone`,
      inactive({ timezone: p }),
      A({ status: [400], names: 'timezone' }, p),
    );
    await schedule(
      `${tag} in schedule integrations`,
      inactive({ integrations: [p] }),
      A({ status: [400], names: 'integrations' }, p),
    );

    const invite = (name: string, body: unknown, expect: Expect) =>
      probe(name, { method: 'POST', path: `${API}/util/sellers-and-vendors/invite`, key: keyA, json: body }, expect);
    await invite(`${tag} as invitation name`, { name: p }, A({ status: [201] }, p));
    await invite(
      `${tag} in invitation marketplaceCountryCode`,
      { marketplaceCountryCode: p },
      A({ status: [400], names: 'marketplaceCountryCode' }, p),
    );
    await invite(`${tag} in invitation accountType`, { accountType: p }, A({ status: [400], names: 'accountType' }, p));

    const q = encodeURIComponent(p);
    // The public OAuth callbacks look their one-time state up in the control plane.
    const page = (name: string, req: Req) => probe(name, req, A({ status: [400], noShape: true }, p, q));
    await page(`${tag} in sp-api callback state=, code and seller id`, {
      path: `/oauth/sp-api/callback?state=${q}&spapi_oauth_code=${q}&selling_partner_id=${q}`,
    });
    await page(`${tag} in sp-api callback error=`, {
      path: `/oauth/sp-api/callback?error=${q}&error_description=${q}`,
    });
    await page(`${tag} in ads callback state= and code=`, { path: `/oauth/ads/callback?state=${q}&code=${q}` });
    await page(`${tag} in ads profile state`, {
      method: 'POST',
      path: '/oauth/ads/profile',
      body: `state=${q}&profileId=1`,
      contentType: 'application/x-www-form-urlencoded',
    });
    await page(`${tag} in ads profile profileId`, {
      method: 'POST',
      path: '/oauth/ads/profile',
      body: `state=x&profileId=${q}`,
      contentType: 'application/x-www-form-urlencoded',
    });
    const get = (name: string, path: string, expect: Expect) =>
      probe(name, { path: `${API}${path}`, key: keyA }, { ...expect, echoes: [...(expect.echoes ?? []), q] });
    await get(`${tag} in sellers query=`, `/util/sellers-and-vendors?query=${q}`, A({ status: [200], check: none }, p));
    await get(
      `${tag} in sellers marketplaceCountryCode=`,
      `/util/sellers-and-vendors?marketplaceCountryCode=${q}`,
      A({ status: [400], names: 'marketplaceCountryCode' }, p),
    );
    await get(`${tag} in sellers page=`, `/util/sellers-and-vendors?page=${q}`, A({ status: [400], names: 'page' }, p));
    await get(
      `${tag} in sources sellerOrVendorIds=`,
      `/exports/sources?sellerOrVendorIds=${q}`,
      A({ status: [404] }, p),
    );
    await get(
      `${tag} in sources sellerOrVendorIds= after A's`,
      `/exports/sources?sellerOrVendorIds=${connIdsA[0]}&sellerOrVendorIds=${q}`,
      A({ status: [404] }, p),
    );
    await get(
      `${tag} in sources query=`,
      `/exports/sources?sellerOrVendorIds=${connIdsA[0]}&query=${q}`,
      A({ status: [200] }, p),
    );
    await get(
      `${tag} in sources sourceType=`,
      `/exports/sources?sellerOrVendorIds=${connIdsA[0]}&sourceType=${q}`,
      A({ status: [400], names: 'sourceType' }, p),
    );
    await get(
      `${tag} in sources enabled=`,
      `/exports/sources?sellerOrVendorIds=${connIdsA[0]}&enabled=${q}`,
      A({ status: [400], names: 'enabled' }, p),
    );
    await get(`${tag} in exports exportIds=`, `/exports?exportIds=${q}`, A({ status: [200], check: none }, p));
    await get(`${tag} in exports pageSize=`, `/exports?pageSize=${q}`, A({ status: [400], names: 'pageSize' }, p));
    await get(`${tag} as a query parameter name`, `/exports?${q}=1`, A({ status: [400] }, p));
    await get(
      `${tag} in schedules active=`,
      `/exports/schedules?active=${q}`,
      A({ status: [400], names: 'active' }, p),
    );
    await get(`${tag} in data-scheme query=`, `/spec/data-scheme?query=${q}`, A({ status: [200] }, p));
    await get(
      `${tag} in data-scheme containsPii=`,
      `/spec/data-scheme?containsPii=${q}`,
      A({ status: [400], names: 'containsPii' }, p),
    );
    await get(`${tag} in data-scheme.md query=`, `/spec/data-scheme.md?query=${q}`, A({ status: [200] }, p));
    await get(
      `${tag} in download expires= and signature=`,
      `/exports/${exportA}/download?expires=${q}&signature=${q}`,
      A({ status: [400, 403], secrets: [...secretsOfB, ...orderIds] }, p),
    );
  }
  for (const code of [`'-`, '--', `';`, `' `]) {
    await probe(
      `quote in a two-letter marketplaceCountryCode (${code})`,
      { path: `${API}/util/sellers-and-vendors?marketplaceCountryCode=${encodeURIComponent(code)}`, key: keyA },
      A({ status: [200, 400], check: none }, code),
    );
  }
  const script = '<script>alert(1)</script>';
  await probe(
    'markup in sp-api callback error= is escaped',
    { path: `/oauth/sp-api/callback?error=${encodeURIComponent(script)}` },
    A({
      status: [400],
      noShape: true,
      check: (a) => (a.text.includes(script) ? 'the page carries the markup unescaped' : undefined),
    }),
  );
  // The payloads were data: every export filtered by one matched nothing, and the control matched.
  for (const e of injected) {
    const body = await waitExport(e.id).catch((error: Error) => ({ status: error.message, rowCount: null }));
    tally(
      body.status === 'COMPLETED' && body.rowCount === 0
        ? undefined
        : `${e.name}: export ${e.id} ended ${String(body.status)} with ${String(body.rowCount)} rows (expected COMPLETED, 0 rows)`,
    );
  }
  if (controlExport) {
    const body = await waitExport(controlExport.id);
    tally(
      body.status === 'COMPLETED' && Number(body.rowCount) > 0
        ? undefined
        : `control filter: export ended ${String(body.status)} with ${String(body.rowCount)} rows (expected rows)`,
    );
  } else tally('control filter: not accepted');

  // The control plane is intact: A's export, schedule and connections, and B's key.
  group = 'intact';
  await probe(
    'A lists its export',
    { path: `${API}/exports?exportIds=${exportA}`, key: keyA },
    A({
      status: [200],
      check: (a) =>
        items(a).some((i) => i.id === exportA && i.status === 'COMPLETED') ? undefined : "A's export is not listed",
    }),
  );
  await probe(
    'A reads its export',
    { path: `${API}/exports/${exportA}`, key: keyA },
    A({
      status: [200],
      check: (a) => (json(a).status === 'COMPLETED' ? undefined : `status ${String(json(a).status)}`),
    }),
  );
  await probe(
    'A reads its schedule unchanged',
    { path: `${API}/exports/schedules/${scheduleA}`, key: keyA },
    A({
      status: [200],
      check: (a) =>
        json(a).name === scheduleName && JSON.stringify(json(a).sellerOrVendorIds) === JSON.stringify(connIdsA)
          ? undefined
          : `schedule now ${JSON.stringify(json(a)).slice(0, 200)}`,
    }),
  );
  await probe(
    'A lists its sellers',
    { path: `${API}/util/sellers-and-vendors`, key: keyA },
    A({
      status: [200],
      check: (a) => (items(a).length === connIdsA.length ? undefined : `${items(a).length} sellers`),
    }),
  );
  await probe(
    'A lists its schedules',
    { path: `${API}/exports/schedules`, key: keyA },
    A({
      status: [200],
      check: (a) => (items(a).some((i) => i.id === scheduleA) ? undefined : "A's schedule is not listed"),
    }),
  );
  await probe(
    "B's key still works",
    { path: `${API}/util/organization`, key: keyB },
    { status: [200], secrets: secretsOfA },
  );
  await probe('B still lists no export', { path: `${API}/exports`, key: keyB }, B({ status: [200], check: none }));

  // --- 3. Path traversal in every path parameter (A's key: a user of the API trying to reach files).
  group = 'traversal';
  const warehouseFile = resolve(s.home, 'warehouse.duckdb');
  const traversals = [
    '..',
    '../',
    '..%2F..%2Fwarehouse.duckdb',
    '..%2F..%2Fpackage.json',
    '%2e%2e%2f%2e%2e%2fpackage.json',
    '%2E%2E%2F%2E%2E%2F%2E%2E%2Fpackage.json',
    '..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
    '..%5c..%5cpackage.json',
    '%2Fetc%2Fpasswd',
    encodeURIComponent(warehouseFile),
    `${exportA}%2F..%2F..%2F..%2Fpackage.json`,
    'x%00',
    `${exportA}%00`,
    '%00',
    'A'.repeat(5000),
    '%252e%252e%252fpackage.json',
    '%c0%ae%c0%ae%2fpackage.json',
    '%',
    '....%2F%2F....%2F%2Fpackage.json',
  ];
  const decoded = (t: string) => {
    try {
      return decodeURIComponent(t);
    } catch {
      return t;
    }
  };
  const routes: { name: string; req: (p: string) => Req; noShape?: boolean; status?: number[] }[] = [
    { name: 'GET /exports/{exportId}', req: (p) => ({ path: `${API}/exports/${p}`, key: keyA }) },
    { name: 'DELETE /exports/{exportId}', req: (p) => ({ method: 'DELETE', path: `${API}/exports/${p}`, key: keyA }) },
    { name: 'GET /exports/{exportId}/raw', req: (p) => ({ path: `${API}/exports/${p}/raw`, key: keyA }) },
    {
      name: 'GET /exports/{exportId}/download',
      req: (p) => ({ path: `${API}/exports/${p}/download?expires=${future}&signature=${'a'.repeat(64)}` }),
    },
    { name: 'GET /exports/schedules/{scheduleId}', req: (p) => ({ path: `${API}/exports/schedules/${p}`, key: keyA }) },
    {
      name: 'PUT /exports/schedules/{scheduleId}',
      req: (p) => ({
        method: 'PUT',
        path: `${API}/exports/schedules/${p}`,
        key: keyA,
        json: scheduleBody(connIdsA, { name: 'traversal' }),
      }),
    },
    {
      name: 'DELETE /exports/schedules/{scheduleId}',
      req: (p) => ({ method: 'DELETE', path: `${API}/exports/schedules/${p}`, key: keyA }),
    },
    {
      name: 'GET /exports/schedules/{scheduleId}/latest',
      req: (p) => ({ path: `${API}/exports/schedules/${p}/latest`, key: keyA }),
    },
    { name: 'GET /spec/data-scheme/{file}', req: (p) => ({ path: `${API}/spec/data-scheme/${p}` }), noShape: true },
    {
      name: 'GET /spec/data-scheme/{file}.md',
      req: (p) => ({ path: `${API}/spec/data-scheme/${p}.md` }),
      noShape: true,
    },
    { name: 'GET /invite/{token}', req: (p) => ({ path: `/invite/${p}` }), noShape: true },
    {
      name: 'POST /invite/{token}',
      req: (p) => ({
        method: 'POST',
        path: `/invite/${p}`,
        body: 'name=x&marketplaceId=ATVPDKIKX0DER',
        contentType: 'application/x-www-form-urlencoded',
      }),
      noShape: true,
    },
  ];
  for (const route of routes) {
    for (const t of traversals) {
      await probe(`${route.name} with ${short(t, 40)}`, route.req(t), {
        status: route.status ?? s4xx,
        noShape: route.noShape,
        secrets: [...secretsOfB, ...fileContents],
        echoes: [t, decoded(t)],
      });
    }
  }
  await probe(
    'the spec page of ..%2F..%2Fpackage.json',
    { path: `${API}/spec/data-scheme/..%2F..%2Fpackage.json` },
    {
      status: [404],
      noShape: true,
      secrets: fileContents,
      check: (a) =>
        /markdown/.test(String(a.headers['content-type']))
          ? undefined
          : `content-type ${String(a.headers['content-type'])}`,
    },
  );
  await probe(
    "A's export survived the traversals",
    { path: `${API}/exports/${exportA}`, key: keyA },
    { status: [200] },
  );
  await probe(
    "A's schedule survived the traversals",
    { path: `${API}/exports/schedules/${scheduleA}`, key: keyA },
    { status: [200] },
  );

  // Unit costs, vendor codes, SQP lists, data files and usage logs: isolation, traversal, injection
  // (probe-resources.ts).
  await resourceProbes({
    probe,
    must,
    setGroup: (name) => (group = name),
    keyA,
    keyB,
    connA: connIdsA[0]!,
    connB,
    secretsOfA,
    secretsOfB,
    traversals,
  });

  // --- 4. Bodies.
  group = 'bodies';
  const alive = async (after: string) =>
    probe(`server answers after ${after}`, { path: `${API}/util/organization`, key: keyA }, { status: [200] });
  const big = Buffer.from(`{"sellerOrVendorIds":${JSON.stringify(connIdsA)},"pad":"${'x'.repeat(20 << 20)}"}`);
  const bodyRoutes: { name: string; method: Method; path: string }[] = [
    { name: 'POST /exports', method: 'POST', path: `${API}/exports` },
    { name: 'POST /exports/schedules', method: 'POST', path: `${API}/exports/schedules` },
    { name: 'PUT /exports/schedules/{A}', method: 'PUT', path: `${API}/exports/schedules/${scheduleA}` },
    { name: 'POST /util/sellers-and-vendors/invite', method: 'POST', path: `${API}/util/sellers-and-vendors/invite` },
    { name: 'POST /cogs', method: 'POST', path: `${API}/cogs` },
    { name: 'POST /vendor-codes', method: 'POST', path: `${API}/vendor-codes` },
    { name: 'POST /sqp-asins', method: 'POST', path: `${API}/sqp-asins` },
    { name: 'DELETE /sqp-asins', method: 'DELETE', path: `${API}/sqp-asins` },
  ];
  const bodyProbe = (name: string, route: { method: Method; path: string }, req: Partial<Req>, status: number[]) =>
    probe(
      name,
      { method: route.method, path: route.path, key: keyA, contentType: 'application/json', ...req },
      { status, secrets: secretsOfB },
    );
  /**
   * A client that sends the whole body at once, as fetch does, `tries` times: each must see the 413 (not a reset
   * connection because the server closed it with the body unread).
   */
  const oversized = async (name: string, req: Req, tries: number) => {
    const seen: string[] = [];
    for (let i = 0; i < tries; i++) {
      try {
        const answer = await call(req);
        const reasons = judge(req, answer, { status: [413], secrets: secretsOfB }, alwaysSecret);
        notePhrase(name, req, answer, { status: [413] });
        seen.push(reasons.length === 0 ? '413' : `${answer.status} (${reasons.join('; ')})`);
      } catch (error) {
        seen.push((error as NodeJS.ErrnoException).code ?? (error as Error).message);
      }
    }
    const seenAll = seen.every((x) => x === '413');
    tally(
      seenAll
        ? undefined
        : `${label(name, req)} → 413 seen by ${seen.filter((x) => x === '413').length} of ${tries} clients; the others: ${seen.filter((x) => x !== '413').join(', ')}`,
    );
  };
  for (const route of bodyRoutes) {
    const req: Req = { method: route.method, path: route.path, key: keyA, contentType: 'application/json', body: big };
    await probe(
      `20 MB JSON to ${route.name}, the client waiting for an early answer`,
      { ...req, hold: 1000 },
      { status: [413], secrets: secretsOfB },
    );
    await oversized(`20 MB JSON to ${route.name} sent at once, 5 clients`, req, 5);
    await alive(`20 MB to ${route.name}`);
  }
  await oversized(
    '20 MB JSON chunked to POST /exports sent at once, 5 clients',
    { method: 'POST', path: bodyRoutes[0]!.path, key: keyA, contentType: 'application/json', body: big, chunked: true },
    5,
  );
  await alive('20 MB chunked');
  const deep = 100_000;
  const nested: [string, string][] = [
    [`${deep} levels of [ (unclosed)`, '['.repeat(deep)],
    [`${deep} levels of [ ]`, '['.repeat(deep) + ']'.repeat(deep)],
    [`${deep} levels of {"a":`, '{"a":'.repeat(deep) + '1' + '}'.repeat(deep)],
    [
      `${deep} levels of [ ] in sellerOrVendorIds`,
      `{"sellerOrVendorIds":${'['.repeat(deep)}${']'.repeat(deep)},"sourceId":"${sourceId}"}`,
    ],
    ['1 000 000 levels of [ (unclosed, under the size limit)', '['.repeat(1_000_000)],
  ];
  for (const route of bodyRoutes) {
    for (const [name, text] of nested) {
      await bodyProbe(`${name} to ${route.name}`, route, { body: text }, [400, 413]);
    }
  }
  await alive('deeply nested bodies');
  const malformed: [string, string | Buffer][] = [
    ['unterminated JSON', '{"sellerOrVendorIds": ['],
    ['single quotes', `{'sellerOrVendorIds': ['x']}`],
    ['trailing comma', `{"sellerOrVendorIds": ${JSON.stringify(connIdsA)},}`],
    ['empty body', ''],
    ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])],
    ['__proto__ key', `{"__proto__": {"isAdmin": true}, "sellerOrVendorIds": ${JSON.stringify(connIdsA)}}`],
    ['constructor.prototype key', `{"constructor": {"prototype": {"isAdmin": true}}}`],
    ['NaN', `{"limit": NaN}`],
  ];
  for (const route of [bodyRoutes[0]!, bodyRoutes[1]!]) {
    for (const [name, text] of malformed) await bodyProbe(`${name} to ${route.name}`, route, { body: text }, [400]);
  }
  const typed: [string, string, string][] = [
    ['text/plain', 'text/plain', JSON.stringify(exportBody)],
    ['application/xml', 'application/xml', '<export><sourceId>x</sourceId></export>'],
    [
      'multipart/form-data',
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="sourceId"\r\n\r\nx\r\n--x--\r\n',
    ],
    [
      'application/x-www-form-urlencoded',
      'application/x-www-form-urlencoded',
      `sellerOrVendorIds=${connIdsA[0]}&sourceId=${sourceId}`,
    ],
    ['application/json-patch+json', 'application/json-patch+json', JSON.stringify(exportBody)],
    ['a made-up type', 'application/x-mktdata', JSON.stringify(exportBody)],
  ];
  for (const [name, contentType, text] of typed)
    await bodyProbe(`${name} body to POST /exports`, bodyRoutes[0]!, { body: text, contentType }, s4xx);
  await probe(
    'JSON body without a content type to POST /exports',
    { method: 'POST', path: `${API}/exports`, key: keyA, body: JSON.stringify(exportBody) },
    { status: s4xx, secrets: secretsOfB },
  );
  for (const route of bodyRoutes) {
    for (const value of ['null', '[]', `[${JSON.stringify(exportBody)}]`, '"a string"', '42', 'true']) {
      await bodyProbe(`${value.slice(0, 20)} as the body of ${route.name}`, route, { body: value }, [400]);
    }
  }
  await alive('malformed bodies');

  // --- 6. Webhook URLs aimed at private addresses.
  group = 'webhook urls';
  await webhookProbes({
    probe,
    tally,
    keyA,
    scheduleA,
    scheduleBody: (extra) => scheduleBody(connIdsA, extra),
    secrets: secretsOfB,
  });

  // --- 5. Signed links (last: the expiry probe restarts serve).
  group = 'signed links';
  const link = await call({ path: `${API}/exports/${exportA}/raw`, key: keyA });
  const signed = new URL(String(link.headers.location ?? 'http://invalid/'));
  tally(
    link.status === 302 && signed.origin === origin()
      ? undefined
      : `/raw: ${link.status} ${String(link.headers.location)} (expected 302 to this server)`,
  );
  const expires = signed.searchParams.get('expires') ?? '';
  const signature = signed.searchParams.get('signature') ?? '';
  const at = (id: string, query: string) => `${API}/exports/${id}/download${query ? `?${query}` : ''}`;
  const flip = (text: string, i: number) => text.slice(0, i) + (text[i] === '0' ? '1' : '0') + text.slice(i + 1);
  const refused = (status = [403]): Expect => ({
    status,
    secrets: [...orderIds, ...secretsOfB],
    echoes: [exportA, controlExport?.id ?? ''],
  });
  await probe(
    'untampered link downloads',
    { path: `${signed.pathname}${signed.search}` },
    {
      status: [200],
      noShape: true,
      check: (a) =>
        a.text === fileA.text ? undefined : `another file (${a.text.length} bytes, expected ${fileA.text.length})`,
    },
  );
  await probe(
    'first signature character flipped',
    { path: at(exportA, `expires=${expires}&signature=${flip(signature, 0)}`) },
    refused(),
  );
  await probe(
    'last signature character flipped',
    { path: at(exportA, `expires=${expires}&signature=${flip(signature, signature.length - 1)}`) },
    refused(),
  );
  await probe(
    'signature in upper case',
    { path: at(exportA, `expires=${expires}&signature=${signature.toUpperCase()}`) },
    refused(),
  );
  await probe(
    'signature cut by one',
    { path: at(exportA, `expires=${expires}&signature=${signature.slice(0, -1)}`) },
    refused(),
  );
  await probe(
    'expires one second later',
    { path: at(exportA, `expires=${Number(expires) + 1}&signature=${signature}`) },
    refused(),
  );
  await probe(
    'expires a year later',
    { path: at(exportA, `expires=${Number(expires) + 365 * 86_400}&signature=${signature}`) },
    refused(),
  );
  await probe(
    'expired (expires decreased below now; so the signature is bad too)',
    { path: at(exportA, `expires=${Math.floor(Date.now() / 1000) - 60}&signature=${signature}`) },
    refused(),
  );
  if (controlExport)
    await probe(
      'another export of A in the path, same signature',
      { path: at(controlExport.id, `expires=${expires}&signature=${signature}`) },
      refused(),
    );
  await probe(
    'an unknown export in the path, same signature',
    { path: at(randomUUID(), `expires=${expires}&signature=${signature}`) },
    refused([403, 404]),
  );
  await probe('signature removed', { path: at(exportA, `expires=${expires}`) }, refused([400, 403]));
  await probe('expires removed', { path: at(exportA, `signature=${signature}`) }, refused([400, 403]));
  await probe('query removed', { path: at(exportA, '') }, refused([400, 403]));
  await probe(
    'signature given twice',
    { path: at(exportA, `expires=${expires}&signature=${flip(signature, 0)}&signature=${signature}`) },
    refused([400, 403]),
  );
  await probe(
    'an extra parameter',
    { path: at(exportA, `expires=${expires}&signature=${signature}&path=..%2F..%2Fwarehouse.duckdb`) },
    {
      ...refused([200, 400]),
      noShape: true,
      check: (a) => (a.status !== 200 || a.text === fileA.text ? undefined : 'another file'),
    },
  );
  // A link signed by a server that makes them valid for 0 minutes (the smallest --signed-url-minutes) is expired.
  await restart(['--signed-url-minutes', '0']);
  const expiring = await call({ path: `${API}/exports/${exportA}/raw`, key: keyA });
  const expired = new URL(String(expiring.headers.location ?? 'http://invalid/'));
  tally(expiring.status === 302 ? undefined : `/raw with --signed-url-minutes 0: ${expiring.status} (expected 302)`);
  await sleep(1100);
  await probe(
    'expired link (--signed-url-minutes 0, untampered)',
    { path: `${expired.pathname}${expired.search}` },
    refused(),
  );
  await probe(
    'the earlier 15-minute link still downloads after a restart',
    { path: `${signed.pathname}${signed.search}` },
    {
      status: [200],
      noShape: true,
      check: (a) => (a.text === fileA.text ? undefined : 'another file'),
    },
  );

  // --- 7. The error bodies' `error` is the status's reason phrase (docs/design/API.md: 404 "Not Found"), once per
  // status seen.
  group = 'error bodies';
  for (const [status, wrong] of [...phrased].sort(([a], [b]) => a - b)) {
    tally(
      wrong === undefined
        ? undefined
        : `${status}: error is not ${JSON.stringify(STATUS_CODES[status])}, e.g. ${wrong}`,
    );
  }

  for (const [name, c] of groupCounts) options.log(`probes: ${name.padEnd(14)} ${c.passed} of ${c.probes} passed`);
}
