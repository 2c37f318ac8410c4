// The console over plain HTTP: signing in and out, the session cookie, scoping of a form's action, and refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/api/app.ts';
import { demoUs, refusedFile, startConsoleHome, type ConsoleHome } from '../helpers/console-home.ts';

describe('the console over HTTP', () => {
  let h: ConsoleHome;
  beforeAll(async () => {
    h = await startConsoleHome();
  });
  afterAll(async () => h?.close());

  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${h.url}${path}`, { headers, redirect: 'manual' });
  const signIn = async (key: string, next = '/') => {
    const res = await fetch(`${h.url}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key, next }),
    });
    return { res, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]! };
  };

  it('sends a visitor without a key to sign in, and back to the page asked for after', async () => {
    const res = await get('/runs?x=1');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/login?next=%2Fruns%3Fx%3D1');
    const { res: signedIn, cookie } = await signIn(h.key, '/runs?x=1');
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/runs?x=1');
    // The session cookie: HttpOnly, same-site only, and it holds no key.
    const set = signedIn.headers.get('set-cookie')!;
    expect(set).toMatch(/HttpOnly/i);
    expect(set).toMatch(/SameSite=Strict/i);
    expect(set).not.toContain(h.key);
    const page = await get('/runs', { cookie });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await page.text()).toContain('Signed in as organization Demo organization');
  });

  it('refuses a wrong key, a forged cookie and a sign-in that would lead off the site', async () => {
    const wrong = await signIn('not-a-key');
    expect(wrong.res.status).toBe(401);
    expect(await wrong.res.text()).toContain('neither an API key of an organization nor the operator key');
    const { cookie } = await signIn(h.key);
    const [name, value] = cookie.split('=');
    const [hash, expires, signature] = value!.split('.');
    // A later expiry under the old signature, and a signature of another key's hash: both are not sessions.
    for (const forged of [
      `${hash}.${Number(expires) + 3600}.${signature}`,
      `${'0'.repeat(64)}.${expires}.${signature}`,
    ]) {
      expect((await get('/', { cookie: `${name}=${forged}` })).status).toBe(303);
    }
    const offSite = await signIn(h.key, '//evil.example.com/');
    expect(offSite.res.headers.get('location')).toBe('/');
  });

  it('signs out', async () => {
    const { cookie } = await signIn(h.key);
    const out = await fetch(`${h.url}/logout`, { method: 'POST', redirect: 'manual', headers: { cookie } });
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toMatch(/mktdata_console=;/);
  });

  it('lets no organization retry another one’s refused file, nor a form of another site act', async () => {
    const id = (
      await h.wh.db
        .selectFrom('control.quarantined_files')
        .select('id')
        .where('file_name', '=', refusedFile.name)
        .executeTakeFirstOrThrow()
    ).id;
    const retry = (key: string, headers: Record<string, string> = {}) =>
      fetch(`${h.url}/quarantine/${id}/retry`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'service-api-key': key, ...headers },
      });
    const rival = await retry(h.rivalKey);
    expect(rival.status).toBe(400);
    expect(await rival.text()).toContain('no refused file');
    expect((await retry(h.key, { origin: 'https://evil.example.com' })).status).toBe(403);
    // A sandboxed page sends `Origin: null`; neither it nor a malformed header is this site.
    for (const origin of ['null', 'not a url']) expect((await retry(h.key, { origin })).status, origin).toBe(403);
    expect((await fetch(`${h.url}/quarantine/${id}/retry`, { method: 'POST', redirect: 'manual' })).status).toBe(401);
    // Still refused and kept: nothing above moved it.
    expect(
      await h.wh.db.selectFrom('control.quarantined_files').select('id').where('id', '=', id).executeTakeFirst(),
    ).toBeDefined();
    const page = await get('/quarantine', { 'service-api-key': h.key });
    expect(await page.text()).toContain(refusedFile.name);
  });

  it('answers 404 for a run or table it does not have, and serves its scripts', async () => {
    expect((await get('/runs/no-such-run', { 'service-api-key': h.key })).status).toBe(404);
    expect((await get('/catalog/no_such_table', { 'service-api-key': h.key })).status).toBe(404);
    expect((await get('/assets/__proto__')).status).toBe(404);
    const script = await get('/assets/uplot.min.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    // A connection of the demo organization: its id is on its page, not on the rival's.
    expect(await (await get('/', { 'service-api-key': h.key })).text()).toContain(demoUs);
    expect(await (await get('/', { 'service-api-key': h.rivalKey })).text()).not.toContain(demoUs);
  });

  it('shows a table’s lineage on its catalog page', async () => {
    const page = await (await get('/catalog/mkt_profit_by_date', { 'service-api-key': h.key })).text();
    expect(page).toContain('<h2>Lineage</h2>');
    expect(page).toContain('<code>marts.mkt_order_items_with_cogs</code>');
    expect(page).toMatch(
      /001 Profit measure rules 9 and 10: the fee category .*<code>staging\.stg_mkt__settlement_rows<\/code>/s,
    );
  });

  it('refuses to start with an operator key too short to guard every organization', async () => {
    await expect(buildApp({ wh: h.wh, home: h.home, logger: false, operatorKey: 'short' })).rejects.toThrow(
      /MKTDATA_OPERATOR_KEY: the operator key must be at least 24 characters long/,
    );
  });
});
