// The fake on its own, driven over HTTP the way any client of the published APIs would: LWA, sellers, a report from
// request to document, the documented rate limits, and the Ads API's profiles.
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSellers, scaledClock, startFakeMarketplace, type FakeMarketplace } from '../src/index.ts';

let fake: FakeMarketplace;
const [us] = demoSellers('2026-06-01');

beforeAll(async () => {
  fake = await startFakeMarketplace({ sellers: [us!], polls: { inQueue: 1, inProgress: 1 } });
});
afterAll(() => fake.close());

async function accessToken(api: 'sp-api' | 'ads'): Promise<string> {
  const app = api === 'sp-api' ? fake.spApp : fake.adsApp;
  const response = await fetch(`${fake.url}/auth/o2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: fake.grant(us!.sellerId, api),
      client_id: app.clientId,
      client_secret: app.clientSecret,
    }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

const sp = async (token: string, path: string, init: RequestInit = {}) =>
  fetch(`${fake.url}/sp/na${path}`, {
    ...init,
    headers: { 'x-amz-access-token': token, 'content-type': 'application/json', ...init.headers },
  });

describe('the fake marketplace', () => {
  it('refuses a client that is not registered, as LWA does (401 invalid_client)', async () => {
    const response = await fetch(`${fake.url}/auth/o2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: 'x',
        client_id: 'x',
        client_secret: 'y',
      }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it("dates LWA's answers on its own clock, as a marketplace whose clock is not the client's would", async () => {
    // A clock that read 2026-01-01T00:00:00Z a moment ago and runs 60 times faster than real time: the Date header
    // (whole seconds) lies between the clock's reading before the request and after the answer, nowhere near now.
    const clock = scaledClock(60, Date.parse('2026-01-01T00:00:00Z'), Date.now());
    const offClock = await startFakeMarketplace({ sellers: [us!], clock });
    try {
      const before = Math.floor(clock.now() / 1000) * 1000;
      const answer = await fetch(`${offClock.url}/auth/o2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: offClock.grant(us!.sellerId, 'sp-api'),
          client_id: offClock.spApp.clientId,
          client_secret: offClock.spApp.clientSecret,
        }),
      });
      const after = clock.now();
      expect(answer.status).toBe(200);
      const date = Date.parse(answer.headers.get('date') ?? '');
      expect(date).toBeGreaterThanOrEqual(before);
      expect(date).toBeLessThanOrEqual(after);
      expect(date).toBeLessThan(Date.parse('2026-01-02T00:00:00Z'));
    } finally {
      await offClock.close();
    }
  });

  it("answers the seller's marketplace participations to its access token, and 403 without one", async () => {
    const token = await accessToken('sp-api');
    const answer = await sp(token, '/sellers/v1/marketplaceParticipations');
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { payload: { marketplace: { id: string } }[] };
    expect(body.payload.map((p) => p.marketplace.id)).toContain(us!.marketplaceId);
    expect((await sp('', '/sellers/v1/marketplaceParticipations')).status).toBe(403);
  });

  it('takes a report from createReport through getReport to its gzipped document', async () => {
    const token = await accessToken('sp-api');
    const created = await sp(token, '/reports/2021-06-30/reports', {
      method: 'POST',
      body: JSON.stringify({
        reportType: 'GET_MERCHANT_LISTINGS_ALL_DATA',
        marketplaceIds: [us!.marketplaceId],
      }),
    });
    expect(created.status).toBe(202);
    const { reportId } = (await created.json()) as { reportId: string };
    // One poll in the queue and one in progress (the `polls` option), then DONE.
    let report: { processingStatus: string; reportDocumentId?: string } = { processingStatus: '' };
    for (let poll = 0; poll < 5 && report.processingStatus !== 'DONE'; poll++)
      report = (await (await sp(token, `/reports/2021-06-30/reports/${reportId}`)).json()) as typeof report;
    expect(report.processingStatus).toBe('DONE');
    const document = (await (await sp(token, `/reports/2021-06-30/documents/${report.reportDocumentId}`)).json()) as {
      url: string;
      compressionAlgorithm?: string;
    };
    const bytes = Buffer.from(await (await fetch(document.url)).arrayBuffer());
    const text = (document.compressionAlgorithm === 'GZIP' ? gunzipSync(bytes) : bytes).toString('utf8');
    expect(text.split('\n')[0]).toContain('seller-sku');
  });

  it('refuses requests over the documented burst with 429 and counts them in its log', async () => {
    const token = await accessToken('sp-api');
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await sp(token, '/sellers/v1/marketplaceParticipations')).status);
    expect(statuses).toContain(429);
    expect(fake.log.some((entry) => entry.status === 429)).toBe(true);
  });

  it("lists the advertiser's profile on the Ads API", async () => {
    const token = await accessToken('ads');
    const answer = await fetch(`${fake.url}/ads/na/v2/profiles`, {
      headers: { authorization: `Bearer ${token}`, 'amazon-advertising-api-clientid': fake.adsApp.clientId },
    });
    expect(answer.status).toBe(200);
    const profiles = (await answer.json()) as { profileId: number }[];
    expect(profiles.map((p) => p.profileId)).toEqual([us!.ads!.profileId]);
  });
});
