// Secrets: the demo (`npm start`: a fake marketplace, the sellers connected with refresh tokens, the first load
// fetched through the connectors, the API served) run in a soak home, used through the API as a client uses it, then
// stopped; the suite then greps everything it can see for every secret it knows: the home's files (the warehouse
// and snapshot included, byte for byte), the log, every CLI output and every answer it received (exports included).
// API keys must be stored only hashed (sha256), refresh tokens only encrypted; the application's client secrets and
// any LWA token (`Atza|…` access, `Atzr|…` refresh) must appear nowhere; nor may an invitation link's token or the
// OAuth code and state of a seller connecting through it. Webhook secrets join when webhooks exist.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { openSync, closeSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { readAllCredentials } from '../src/connectors/credentials.ts';
import { openWarehouse } from '../src/db/warehouse.ts';
import { defaultAdsApp, defaultSpApp } from '@mktdata/fake-marketplace';
import { resolveHome } from '../src/home.ts';
import { connectThroughInvitation } from '../test/helpers/consent.ts';
import { demoConnections, mktdata } from './homes.ts';

export interface SecretsReport {
  /** Secrets looked for (the API key, each refresh token, the client secrets) and token patterns. */
  secrets: number;
  /** Places searched: files of the home, logs and outputs, answers. */
  places: number;
  answers: number;
  failures: string[];
}

const root = join(import.meta.dirname, '..');

export async function secrets(workDir: string, options: { log: (line: string) => void }): Promise<SecretsReport> {
  const home = join(workDir, 'home');
  const logFile = join(workDir, 'demo.log');
  const fd = openSync(logFile, 'a');
  const demo = spawn('node', [join(root, 'bin/mktdata.js'), 'demo', '--home', home, '--port', '0'], {
    stdio: ['ignore', fd, fd],
    env: { ...process.env, NO_COLOR: '1' },
  });
  closeSync(fd);
  const places: { name: string; text: Buffer }[] = [];
  const answers: { name: string; text: Buffer }[] = [];
  const flowSecrets: { what: string; value: string }[] = [];
  const failures: string[] = [];
  let key = '';
  try {
    let base = '';
    for (const started = Date.now(); !base; await sleep(200)) {
      const printed = readFileSync(logFile, 'utf8');
      key = /api key \(shown once\): (\S+)/.exec(printed)?.[1] ?? '';
      base = /mktdata serving (http:\/\/\S+\/api\/v1)/.exec(printed)?.[1] ?? '';
      if (demo.exitCode !== null) throw new Error(`the demo exited with ${demo.exitCode}:\n${printed}`);
      if (Date.now() - started > 300_000) throw new Error(`the demo did not serve within 5 minutes:\n${printed}`);
    }
    options.log(`secrets: the demo serves on ${base}; using its API as a client`);
    const call = async (
      path: string,
      init: RequestInit = {},
      headers: Record<string, string> = { 'service-api-key': key },
    ) => {
      await sleep(550); // the 2 per second limit
      const res = await fetch(path.startsWith('http') ? path : `${base}${path}`, {
        ...init,
        headers: { ...headers, ...(init.body ? { 'content-type': 'application/json' } : {}) },
        redirect: 'manual',
      });
      const text = Buffer.from(await res.arrayBuffer());
      answers.push({
        name: `${init.method ?? 'GET'} ${path} → ${res.status}`,
        text: Buffer.concat([Buffer.from(JSON.stringify([...res.headers])), text]),
      });
      return {
        status: res.status,
        location: res.headers.get('location'),
        json: () => JSON.parse(text.toString('utf8')),
      };
    };
    for (const path of [
      '/util/organization',
      '/util/sellers-and-vendors',
      '/exports',
      '/exports/schedules',
      `/exports/sources?sellerOrVendorIds=${demoConnections[0]!.id}`,
      '/spec/data-scheme',
      '/spec/service_api.md',
    ])
      await call(path);
    // Refusals: a wrong key, the key in the wrong header, a bad body, an unknown id.
    await call('/util/organization', {}, { 'service-api-key': `${key}x` });
    await call('/util/organization', {}, { authorization: `Bearer ${key}` });
    await call('/exports', { method: 'POST', body: '{"sellerOrVendorIds": [' });
    await call('/exports/00000000-0000-4000-8000-000000000000');
    const created = await call('/exports', {
      method: 'POST',
      body: JSON.stringify({
        sellerOrVendorIds: demoConnections.map((c) => c.id),
        tableName: 'mkt_order_items_with_cogs',
        outputType: 'CSV',
      }),
    });
    if (created.status === 202) {
      const id = created.json().id as string;
      for (let i = 0; i < 120; i++) {
        const raw = await call(`/exports/${id}/raw`);
        if (raw.status === 302 && raw.location) {
          await call(raw.location, {}, {});
          break;
        }
        if (raw.status !== 202) break;
      }
    }
    // A seller connecting again through an invitation link: the link's token, the OAuth code and state must stay
    // out of the log (they are in the URLs the server is sent).
    const invitation = await call('/util/sellers-and-vendors/invite', {
      method: 'POST',
      body: JSON.stringify({ accountType: 'SELLER', name: 'Acme Outdoor US' }),
    });
    if (invitation.status === 201) {
      const url = invitation.json().url as string;
      const walk = await connectThroughInvitation(url, 'A3ACMEUS0SELLER', {
        name: 'Acme Outdoor US',
        marketplaceId: 'ATVPDKIKX0DER',
      });
      answers.push({ name: `the invitation's callback → ${walk.callback.status}`, text: Buffer.from(walk.body) });
      const callback = new URL(walk.callbackUrl);
      flowSecrets.push(
        { what: 'the invitation token', value: url.split('/invite/')[1] ?? '' },
        { what: 'the OAuth code', value: callback.searchParams.get('spapi_oauth_code') ?? '' },
        { what: 'the OAuth state', value: callback.searchParams.get('state') ?? '' },
      );
    } else failures.push(`creating an invitation answered ${invitation.status}`);
    for (const c of demoConnections) {
      const tested = await mktdata(['connections', 'test', '--connection', c.id, '--home', home]);
      places.push({
        name: `mktdata connections test ${c.id} (while serving: handed to the server)`,
        text: Buffer.from(tested.stdout + tested.stderr),
      });
    }
  } finally {
    demo.kill('SIGTERM');
    await new Promise((resolve) => (demo.exitCode !== null ? resolve(null) : demo.once('exit', resolve)));
  }
  // With the home free: the CLI's own view of the connections, and their secrets decrypted to know what to look for.
  for (const args of [
    ['connections', 'list'],
    ['connections', 'test', '--connection', demoConnections[0]!.id],
    ['runs'],
  ]) {
    const r = await mktdata([...args, '--home', home]);
    places.push({ name: `mktdata ${args.join(' ')}`, text: Buffer.from(r.stdout + r.stderr) });
  }
  const wh = await openWarehouse(resolveHome(home), 'soak');
  const refreshTokens: string[] = [];
  let storedKeys: { key_hash: string; key_prefix: string }[];
  try {
    for (const perApi of (await readAllCredentials(wh)).values())
      for (const c of Object.values(perApi)) if (c?.refreshToken) refreshTokens.push(c.refreshToken);
    storedKeys = await wh.db.selectFrom('control.api_keys').select(['key_hash', 'key_prefix']).execute();
  } finally {
    await wh.close();
  }

  if (!key) failures.push('the demo printed no API key');
  if (refreshTokens.length < 2)
    failures.push(`only ${refreshTokens.length} refresh token(s) stored; the demo connects two sellers`);
  const keyHash = createHash('sha256').update(key).digest('hex');
  if (!storedKeys.some((k) => k.key_hash === keyHash && key.startsWith(k.key_prefix) && k.key_prefix.length <= 8))
    failures.push('the API key is not stored as its sha256 with a short prefix');

  const known = [
    { what: 'the API key', value: key },
    ...refreshTokens.map((t, i) => ({ what: `refresh token ${i + 1}`, value: t })),
    { what: 'the SP-API client secret', value: defaultSpApp.clientSecret },
    { what: 'the Ads API client secret', value: defaultAdsApp.clientSecret },
  ].filter((s) => s.value);
  const patterns = [
    { what: 'an LWA access token (Atza|…)', pattern: /Atza\|[A-Za-z0-9_-]{20}/ },
    { what: 'an LWA refresh token (Atzr|…)', pattern: /Atzr\|[A-Za-z0-9_-]{20}/ },
  ];
  // The demo prints the key, by design, where it says so and in its curl examples: those lines alone may hold it.
  const shown = /^(api key \(shown once\): |The API \(key: |  curl )/;
  const log = readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => !shown.test(line))
    .join('\n');
  places.push({ name: 'the demo log (stdout and stderr)', text: Buffer.from(log) });
  for (const file of readdirSync(home, { recursive: true, withFileTypes: true }).filter((d) => d.isFile())) {
    const path = join(file.parentPath, file.name);
    if (file.name === 'secret.key' || statSync(path).size > 2 * 1024 ** 3) continue;
    places.push({ name: `home file ${path.slice(home.length + 1)}`, text: readFileSync(path) });
  }
  // (The invitation's answer holds its link, by design: the flow's secrets are looked for everywhere else.)
  for (const place of [...places, ...answers]) {
    const latin = place.text.toString('latin1');
    for (const s of [...known, ...(places.includes(place) ? flowSecrets.filter((f) => f.value) : [])])
      if (latin.includes(s.value)) failures.push(`${s.what} found in ${place.name}`);
    for (const p of patterns) if (p.pattern.test(latin)) failures.push(`${p.what} found in ${place.name}`);
  }
  return {
    secrets: known.length + flowSecrets.length + patterns.length,
    places: places.length,
    answers: answers.length,
    failures,
  };
}
