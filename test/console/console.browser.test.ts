// The operator's console in real headless Chromium (Debian's package, driven by playwright-core; nothing downloaded):
// every page on the demo home, a screenshot of each in test-output/, the refused file's line and reason, the chart's
// points, keyboard use, a 375 px screen, pages without JavaScript, and another organization's data never shown.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consolePages } from '../../src/console/layout.ts';
import { demoUs, refusedFile, rival, startConsoleHome, type ConsoleHome } from '../helpers/console-home.ts';

const executablePath = process.env.MKTDATA_CHROMIUM ?? '/usr/bin/chromium';
const available = existsSync(executablePath);
if (!available)
  console.warn(
    `console browser tests skipped: no Chromium at ${executablePath} (apt-get install chromium, as .ci/run does, or set MKTDATA_CHROMIUM)`,
  );
const screenshots = join(process.cwd(), 'test-output');

describe.skipIf(!available)('the operator console in headless Chromium', () => {
  let h: ConsoleHome;
  let browser: Browser;

  beforeAll(async () => {
    h = await startConsoleHome();
    browser = await chromium.launch({
      executablePath,
      // As root in a closed network: no sandbox, and none of Chromium's own background connections.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    mkdirSync(screenshots, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  /** A browser context signed in through the sign-in form with `key`. */
  async function signedIn(
    key: string,
    options: { javaScriptEnabled?: boolean; width?: number } = {},
  ): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({
      javaScriptEnabled: options.javaScriptEnabled ?? true,
      viewport: { width: options.width ?? 1280, height: 900 },
    });
    const page = await context.newPage();
    await page.goto(`${h.url}/runs`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.fill('#key', key);
    await Promise.all([page.waitForURL(`${h.url}/runs`), page.click('button[type=submit]')]);
    return { context, page };
  }

  it('renders every page on the demo home, with a screenshot of each', async () => {
    const { context, page } = await signedIn(h.key);
    const runId = (
      await h.wh.db
        .selectFrom('control.pipeline_runs')
        .select('id')
        .where('pipeline', '=', 'profit')
        .executeTakeFirstOrThrow()
    ).id;
    const pages = [
      ...consolePages.map((p) => ({
        path: p.path,
        heading: p.title,
        shot: p.path === '/' ? 'connections' : p.path.slice(1),
      })),
      { path: `/runs/${runId}`, heading: 'Run', shot: 'run' },
      { path: '/catalog/mkt_profit_by_date', heading: 'mkt_profit_by_date', shot: 'catalog-table' },
    ];
    for (const { path, heading, shot } of pages) {
      const response = await page.goto(`${h.url}${path}`);
      expect(response?.status(), path).toBe(200);
      await expect(page.locator('h1').innerText()).resolves.toBe(heading);
      await page.screenshot({ path: join(screenshots, `console-${shot}.png`), fullPage: true });
    }
    // The demo organization's two sellers, with what the pipelines left: each connection's files landed.
    await page.goto(h.url);
    // by name
    await expect(page.locator('table').first().innerText()).resolves.toMatch(/Acme Outdoor DE[\s\S]*Acme Outdoor US/);
    // The run page lists the profit run's windows; the tables page every catalog table with a freshness badge.
    await page.goto(`${h.url}/runs/${runId}`);
    expect(await page.locator('tbody tr').count()).toBeGreaterThan(0);
    await page.goto(`${h.url}/tables`);
    await expect(page.locator('tr', { hasText: 'mkt_profit_by_date' }).innerText()).resolves.toMatch(/fresh|stale/);
    await context.close();
  });

  it('shows a refused file with its line and reason, and its retry puts the file back in the landing folder', async () => {
    const { context, page } = await signedIn(h.key);
    await page.goto(`${h.url}/quarantine`);
    const row = page.locator('tr', { hasText: refusedFile.name });
    const cells = await row.locator('td').allInnerTexts();
    // The file's third line (header, one good order, then the order priced "twelve").
    expect(cells[3]).toBe(String(refusedFile.line));
    expect(cells[4]).toMatch(refusedFile.reason);
    await Promise.all([
      page.waitForURL(/\/quarantine\?retried=/),
      row.getByRole('button', { name: `Retry ${refusedFile.name}` }).click(),
    ]);
    await expect(page.getByRole('status').innerText()).resolves.toContain(
      `${refusedFile.name} is back in the landing folder`,
    );
    expect(
      existsSync(join(h.home.landing, demoUs, 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL', refusedFile.name)),
    ).toBe(true);
    expect(await page.locator('tr', { hasText: refusedFile.name }).count()).toBe(0);
    await context.close();
  });

  it('draws the daily chart of each connection with a point per published day', async () => {
    const { context, page } = await signedIn(h.key);
    await page.goto(h.url);
    await page.waitForFunction(
      () => Object.keys((window as unknown as { mktdataCharts: object }).mktdataCharts ?? {}).length === 2,
    );
    const charts = await page.evaluate(() =>
      Object.entries(
        (window as unknown as { mktdataCharts: Record<string, { data: unknown[][]; series: { label: string }[] }> })
          .mktdataCharts,
      ).map(([id, u]) => ({ id, points: u.data[0]!.length, series: u.series.slice(1).map((s) => s.label) })),
    );
    // The demo sellers have orders every day. US (daily-0): from 2026-07-31 (its first order, 2026-08-01 02:38 UTC,
    // is the evening before in Los Angeles) to 2026-10-15; DE (daily-1): 2026-08-01 to 2026-10-16 (its last order,
    // 2026-10-15 23:49 UTC, is after midnight in Berlin). 77 days each, all within the 90 ending at its latest date.
    expect(charts).toEqual([
      { id: 'daily-0', points: 77, series: ['Total sales', 'Ad spend', 'Profit'] },
      { id: 'daily-1', points: 77, series: ['Total sales', 'Ad spend', 'Profit'] },
    ]);
    expect(await page.locator('.uplot canvas').count()).toBe(2);
    // Without a screen: the same figures in the table beside the chart.
    expect(await page.locator('figure').first().locator('details tbody tr').count()).toBe(77);
    await context.close();
  });

  it('never shows another organization’s data, and the operator sees every organization', async () => {
    const paths = [...consolePages.map((p) => p.path)];
    const seen = async (key: string) => {
      const { context, page } = await signedIn(key);
      let text = '';
      for (const path of paths) {
        await page.goto(`${h.url}${path}`);
        text += await page.content();
      }
      await context.close();
      return text;
    };
    const demo = await seen(h.key);
    for (const secret of [rival.name, rival.connectionName, rival.connectionId]) expect(demo).not.toContain(secret);
    const other = await seen(h.rivalKey);
    expect(other).toContain(rival.connectionName);
    for (const secret of ['Acme Outdoor', demoUs, refusedFile.name]) expect(other).not.toContain(secret);
    const operator = await seen(h.operatorKey);
    for (const both of [rival.connectionName, 'Acme Outdoor US']) expect(operator).toContain(both);
  });

  it('is usable from the keyboard and on a 375 px screen', async () => {
    const { context, page } = await signedIn(h.key, { width: 375 });
    await page.goto(h.url);
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Skip to content');
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Connections');
    await page.keyboard.press('Tab');
    await Promise.all([page.waitForURL(`${h.url}/runs`), page.keyboard.press('Enter')]);
    for (const path of [...consolePages.map((p) => p.path), '/catalog/mkt_profit_by_date']) {
      await page.goto(`${h.url}${path}`);
      // Nothing wider than the screen: wide tables scroll inside their own region.
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(375);
    }
    await page.goto(h.url);
    await page.screenshot({ path: join(screenshots, 'console-connections-375px.png'), fullPage: true });
    await context.close();
  });

  it('serves its tables and the catalog search without JavaScript', async () => {
    const { context, page } = await signedIn(h.key, { javaScriptEnabled: false });
    await page.goto(h.url);
    expect(await page.locator('table caption', { hasText: 'Connections' }).count()).toBe(1);
    await page.goto(`${h.url}/catalog`);
    await page.fill('#catalog-search', 'settlement');
    await Promise.all([page.waitForURL(/\/catalog\?q=settlement/), page.click('form[role=search] button')]);
    const shown = await page.locator('ul.catalog li:not([hidden])').allInnerTexts();
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(await page.locator('ul.catalog li').count());
    expect(shown.every((t) => /settlement/i.test(t)) || shown.some((t) => /settlement/i.test(t))).toBe(true);
    await context.close();
  });
});
