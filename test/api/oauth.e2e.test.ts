import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/api/app.ts';
import { systemClock } from '../../src/time/clock.ts';
import { Connectors } from '../../src/connectors/connectors.ts';
import { requireCredentials } from '../../src/connectors/credentials.ts';
import { createApiKey, createOrganization } from '../../src/control/organizations.ts';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { demoSellers, startFakeMarketplace, type FakeMarketplace } from '@mktdata/fake-marketplace';
import { decode, formOf } from '../helpers/consent.ts';
import { demoHome, fakeConfig } from '../helpers/live.ts';

describe('connecting an account through the invitation link', () => {
  let app: App | undefined;
  let fake: FakeMarketplace | undefined;
  let wh: Warehouse | undefined;
  afterEach(async () => {
    await app?.close();
    await fake?.close();
    await wh?.close();
  });

  it('walks the seller through the marketplace consent, then the Ads consent, and stores both refresh tokens encrypted', async () => {
    fake = await startFakeMarketplace({ sellers: demoSellers('2026-06-01'), clock: systemClock });
    const made = await demoHome('mktdata-oauth-');
    wh = made.wh;
    const connectors = new Connectors(fakeConfig(fake), systemClock);
    app = await buildApp({ wh, home: made.home, logger: false, connectors });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    // A new organization: the demo one has the demo sellers connected already.
    const key = await createApiKey(wh, await createOrganization(wh, { name: 'Agency', tokens: 10 }));

    const invite = await fetch(`${base}/api/v1/util/sellers-and-vendors/invite`, {
      method: 'POST',
      headers: { 'service-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ accountType: 'SELLER', name: 'Acme via OAuth' }),
    });
    expect(invite.status).toBe(201);
    const { url } = (await invite.json()) as { url: string };
    const page = await (await fetch(url)).text();
    expect(page).toContain('Continue to Seller Central');
    // The invitation page starts the consent: a redirect to the marketplace's consent page with a one-time state.
    const start = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ name: 'Acme via OAuth', marketplaceId: 'ATVPDKIKX0DER' }),
    });
    expect(start.status).toBe(302);
    const consent = new URL(start.headers.get('location')!);
    expect(consent.pathname).toBe('/apps/authorize/consent');
    expect(consent.searchParams.get('application_id')).toBe(fake.spApp.applicationId);
    expect(consent.searchParams.get('redirect_uri')).toBe(`${base}/oauth/sp-api/callback`);

    // The seller picks its account on the marketplace's page and confirms; the marketplace redirects back to us.
    const consentPage = await (await fetch(consent)).text();
    const spForm = formOf(consentPage);
    const confirmed = await fetch(new URL(spForm.action ?? consent.pathname + consent.search, consent), {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({
        ...spForm.fields,
        ...Object.fromEntries(consent.searchParams),
        sellerId: 'A3ACMEUS0SELLER',
      }),
    });
    expect(confirmed.status).toBe(302);
    const callback = await fetch(confirmed.headers.get('location')!);
    const connected = await callback.text();
    expect(callback.status).toBe(201);
    const connectionId = /<code>([0-9a-f-]{36})<\/code>/.exec(connected)![1]!;
    expect(await requireCredentials(wh, connectionId, 'sp-api')).toMatchObject({
      sellingPartnerId: 'A3ACMEUS0SELLER',
      region: 'NA',
    });
    // A replayed callback is refused: the state was used.
    expect((await fetch(confirmed.headers.get('location')!)).status).toBe(400);

    // The connected page offers the Ads consent; its callback picks the profile of the connection's marketplace.
    const adsConsent = new URL(decode(/href="([^"]+\/ap\/oa[^"]*)"/.exec(connected)![1]!));
    const adsForm = formOf(await (await fetch(adsConsent)).text());
    const adsConfirmed = await fetch(new URL(adsForm.action ?? adsConsent.pathname + adsConsent.search, adsConsent), {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({
        ...adsForm.fields,
        ...Object.fromEntries(adsConsent.searchParams),
        sellerId: 'A3ACMEUS0SELLER',
      }),
    });
    expect(adsConfirmed.status).toBe(302);
    const adsCallback = await fetch(adsConfirmed.headers.get('location')!);
    expect(adsCallback.status).toBe(201);
    expect((await requireCredentials(wh, connectionId, 'ads')).profileId).toBe(
      String(demoSellers()[0]!.ads!.profileId),
    );
    // No answer showed a refresh or access token.
    expect(connected + (await adsCallback.text())).not.toMatch(/Atz[ar]\|/);
  });
});
