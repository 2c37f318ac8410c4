import { catalogSources } from '../../catalog/catalog.ts';
import { publishedManifests } from '../../publish/open-snapshot.ts';
import { badge, count, dataTable, html, text, when } from '../layout.ts';
import { scopeConnections, type PageContext } from '../page-context.ts';
import { snapshotFigures } from '../snapshot-figures.ts';
import { type Freshness } from '../../catalog/catalog.ts';

/** A table refreshed longer ago than this is stale: every pipeline refreshes its tables at least daily. */
export const staleAfterHours = 26;

/** The freshness badge of a table: never built, stale, failed fetches waiting, or fresh. */
export function freshnessBadge(f: Freshness | undefined, now: Date): string {
  if (!f?.lastRefreshedAt) return badge('never refreshed', 'muted');
  const hours = (now.getTime() - new Date(f.lastRefreshedAt).getTime()) / 3_600_000;
  if (hours > staleAfterHours) return badge(`stale (${Math.floor(hours / 24)} d)`, 'bad');
  if (f.failedFetches > 0) return badge('fetches failing', 'warn');
  return badge('fresh', 'ok');
}

/** `/tables`: every catalog table with its freshness and the rows the scope holds in the published snapshot. */
export async function tablesPage(ctx: PageContext, freshness: Map<string, Freshness>): Promise<string> {
  const { rows } = await snapshotFigures(ctx.home, ctx.now.toISOString().slice(0, 10));
  const mine = new Set((await scopeConnections(ctx)).map((c) => c.id));
  const rowsOf = (table: string) =>
    [...(rows.get(table) ?? new Map<string, number>())].reduce((sum, [id, n]) => sum + (mine.has(id) ? n : 0), 0);
  const published = publishedManifests(ctx.home)
    .map((m) => m.publishedAt)
    .sort()
    .at(-1);
  const tables = catalogSources().map((s) => ({
    name: s.tableName,
    title: s.name,
    f: freshness.get(s.tableName),
    rows: rowsOf(s.tableName),
  }));
  const note = published
    ? `<p>Published snapshot of ${when(published)}; row counts are your connections' rows in it.</p>`
    : '<p class="muted">Nothing published yet: `mktdata run` builds and publishes the tables.</p>';
  return (
    note +
    dataTable(
      'Catalog tables',
      [
        {
          header: 'Table',
          cell: (t) =>
            `<a href="/catalog/${encodeURIComponent(t.name)}">${html(t.name)}</a><br><span class="muted">${html(t.title)}</span>`,
        },
        { header: 'Freshness', cell: (t) => freshnessBadge(t.f, ctx.now) },
        { header: 'Rows', cell: (t) => count(t.rows ?? null), num: true },
        { header: 'lastRefreshedAt', cell: (t) => when(t.f?.lastRefreshedAt) },
        { header: 'finalThrough', cell: (t) => text(t.f?.finalThrough) },
        { header: 'lastFetchedAt', cell: (t) => when(t.f?.lastFetchedAt) },
        { header: 'Failed fetches', cell: (t) => count(t.f?.failedFetches ?? 0), num: true },
      ],
      tables,
    )
  );
}
