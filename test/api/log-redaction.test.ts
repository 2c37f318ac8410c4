import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/api/app.ts';
import { closeGracefully } from '../../src/api/close-gracefully.ts';
import { redactUrl } from '../../src/api/log-redaction.ts';
import { systemClock } from '../../src/time/clock.ts';
import { Connectors } from '../../src/connectors/connectors.ts';
import { createApiKey, createOrganization } from '../../src/control/organizations.ts';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { demoSellers, startFakeMarketplace, type FakeMarketplace } from '@mktdata/fake-marketplace';
import { connectThroughInvitation } from '../helpers/consent.ts';
import { demoHome, fakeConfig } from '../helpers/live.ts';

// The smallest PNG: the signature and an IHDR chunk are all the magic-bytes check reads.
const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

describe('the request log', () => {
  let app: App | undefined;
  let fake: FakeMarketplace | undefined;
  let wh: Warehouse | undefined;
  afterEach(async () => {
    // As `serve` closes: a keep-alive connection the client still holds cannot keep the close waiting.
    if (app) await closeGracefully(app);
    await fake?.close();
    await wh?.close();
  });

  it('redacts the invitation token, the path and every secret parameter of a URL, and nothing else', () => {
    expect(redactUrl('/invite/abcDEF_123')).toBe('/invite/[redacted]');
    expect(redactUrl('/oauth/sp-api/callback?state=s1&selling_partner_id=A1&spapi_oauth_code=c1')).toBe(
      '/oauth/sp-api/callback?state=[redacted]&selling_partner_id=A1&spapi_oauth_code=[redacted]',
    );
    expect(redactUrl('/api/v1/files/f1/content?expires=99&signature=ab12')).toBe(
      '/api/v1/files/f1/content?expires=99&signature=[redacted]',
    );
    expect(redactUrl('/x?%73ignature=ab&Code=1&page=2')).toBe('/x?%73ignature=[redacted]&Code=[redacted]&page=2');
    expect(redactUrl('/api/v1/exports?pageSize=5')).toBe('/api/v1/exports?pageSize=5');
  });

  it('never shows an invitation token, an OAuth code or state, a signature, an API key or a refresh token', async () => {
    fake = await startFakeMarketplace({ sellers: demoSellers('2026-06-01'), clock: systemClock });
    const made = await demoHome('mktdata-log-redaction-');
    wh = made.wh;
    const lines: string[] = [];
    app = await buildApp({
      wh,
      home: made.home,
      connectors: new Connectors(fakeConfig(fake), systemClock),
      requestsPerSecond: 100,
      logger: { level: 'trace', stream: { write: (line: string) => lines.push(line) } },
    });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    // A new organization: the demo one has the demo sellers connected already.
    const key = await createApiKey(wh, await createOrganization(wh, { name: 'Agency', tokens: 10 }));
    const headers = { 'service-api-key': key, 'content-type': 'application/json' };

    // A seller connects through an invitation, then connects the same account again through another.
    const walks = [];
    for (let i = 0; i < 2; i++) {
      const invite = await fetch(`${base}/api/v1/util/sellers-and-vendors/invite`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ accountType: 'SELLER', name: 'Acme' }),
      });
      const { url } = (await invite.json()) as { url: string };
      await (await fetch(url)).text();
      walks.push({
        url,
        ...(await connectThroughInvitation(url, 'A3ACMEUS0SELLER', { name: 'Acme', marketplaceId: 'ATVPDKIKX0DER' })),
      });
    }
    expect(walks.map((w) => w.callback.status)).toEqual([201, 200]);
    expect(walks[1]!.body).toContain('This account was already connected');
    const connections = await wh.db
      .selectFrom('control.connections')
      .select('id')
      .where('seller_id', '=', 'A3ACMEUS0SELLER')
      .where('name', '=', 'Acme')
      .execute();
    expect(connections).toHaveLength(1);

    // A data file uploaded and downloaded through its signed links.
    const created = await fetch(`${base}/api/v1/files`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'a.png',
        group: 'LISTING_IMAGES',
        type: 'PNG',
        sellerOrVendorId: connections[0]!.id,
        ttlHours: 1,
      }),
    });
    const file = (await created.json()) as { fileId: string; uploadUrl: string };
    expect(created.status, JSON.stringify(file)).toBe(201);
    const uploaded = await fetch(file.uploadUrl, { method: 'PUT', body: png });
    expect(uploaded.status, await uploaded.text()).toBe(200);
    const download = await fetch(`${base}/api/v1/files/${file.fileId}/download`, { headers, redirect: 'manual' });
    await download.arrayBuffer();
    const downloadUrl = download.headers.get('location')!;
    // (Every answer read to its end: a response left unread keeps its connection busy and the server open.)
    const downloaded = await fetch(downloadUrl);
    expect([downloaded.status, Buffer.from(await downloaded.arrayBuffer()).equals(png)]).toEqual([200, true]);

    const secrets = [
      key,
      ...walks.flatMap((w) => {
        const callback = new URL(w.callbackUrl);
        return [
          w.url.split('/invite/')[1]!,
          callback.searchParams.get('spapi_oauth_code')!,
          callback.searchParams.get('state')!,
        ];
      }),
      new URL(file.uploadUrl).searchParams.get('signature')!,
      new URL(downloadUrl).searchParams.get('signature')!,
      fake.spApp.clientSecret,
    ];
    expect(secrets.every((s) => s.length >= 8)).toBe(true);
    const log = lines.join('');
    for (const secret of secrets)
      expect(log.includes(secret), `a secret in the log: ${secret.slice(0, 4)}…`).toBe(false);
    expect(log).not.toMatch(/Atz[ar]\|/);
    // The requests were logged, redacted.
    expect(log).toContain('"url":"/invite/[redacted]"');
    expect(log).toMatch(/"url":"\/oauth\/sp-api\/callback\?[^"]*spapi_oauth_code=\[redacted\]/);
    expect(log).toMatch(/"url":"\/api\/v1\/files\/[^/]+\/content\?expires=\d+&signature=\[redacted\]"/);
  });
});
