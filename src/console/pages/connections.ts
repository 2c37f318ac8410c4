import { chartFigure } from '../charts.ts';
import { badge, count, dataTable, html, statusTone, text, when } from '../layout.ts';
import { nonEmpty, type PageContext } from '../page-context.ts';
import { snapshotFigures } from '../snapshot-figures.ts';
import { initialLoadStages } from '../../pipelines/load-stages.ts';
import { connectionsWithOrganization } from '../../control/connections/connections.ts';
import { credentialStates } from '../../connectors/credentials.ts';
import { landingsOf } from '../../control/landed-files.ts';
import { fetchesByConnection } from '../../pipelines/fetch/fetch-requests.ts';

/**
 * `/`: every connection with its load stage, credentials and last fetch, then its daily figures of the last 90 days.
 */
export async function connectionsPage(ctx: PageContext): Promise<string> {
  const scope = ctx.scope.operator ? undefined : ctx.scope.organizationId;
  const connections = await connectionsWithOrganization(ctx.wh.db, scope);
  const ids = nonEmpty(connections.map((c) => c.id));
  const credentials = await credentialStates(ctx.wh.db, ids);
  const fetches = await fetchesByConnection(ctx.wh.db, ids);
  const landed = await landingsOf(ctx.wh.db, ids);
  // The spec's vocabulary (FIRST_STAGE, SECOND_STAGE, COMPLETE), as the API and the CLI say it.
  const stageOf = await initialLoadStages(ctx.wh, ctx.home);
  const fetchOf = new Map(fetches.map((f) => [f.connection_id, f]));
  const landedOf = new Map(landed.map((l) => [l.connection_id, l]));
  const credentialCell = (id: string) => {
    const mine = credentials.filter((c) => c.connection_id === id);
    if (mine.length === 0) return `${badge('no credentials', 'muted')} <span class="muted">dropped files</span>`;
    return mine
      .map(
        (c) =>
          `${html(c.api)} ${badge(c.status.replace('_', ' '), statusTone(c.status))}${c.status_reason ? ` <span class="error">${html(c.status_reason)}</span>` : ''}`,
      )
      .join('<br>');
  };
  const table = dataTable(
    'Connections',
    [
      ...(ctx.scope.operator
        ? [{ header: 'Organization', cell: (c: (typeof connections)[number]) => text(c.organization) }]
        : []),
      { header: 'Connection', cell: (c) => `${text(c.name)}<br><code class="muted">${html(c.id)}</code>` },
      { header: 'Type', cell: (c) => text(c.type) },
      { header: 'Marketplace', cell: (c) => text(c.marketplace_id) },
      { header: 'Load stage', cell: (c) => badge(stageOf(c.id), statusTone(stageOf(c.id))) },
      { header: 'Credentials', cell: (c) => credentialCell(c.id) },
      { header: 'Last fetch', cell: (c) => when(fetchOf.get(c.id)?.fetched_at) },
      { header: 'Failed fetches', cell: (c) => count(fetchOf.get(c.id)?.failed ?? 0), num: true },
      { header: 'Files landed', cell: (c) => count(landedOf.get(c.id)?.files ?? 0), num: true },
      { header: 'Last landed', cell: (c) => when(landedOf.get(c.id)?.landed_at) },
      ...(ctx.pipelines
        ? [
            {
              header: 'Refresh',
              cell: (c: (typeof connections)[number]) =>
                `<form method="post" action="/connections/${encodeURIComponent(c.id)}/refresh"><button type="submit" aria-label="Refresh ${html(c.name)} now">Refresh now</button></form>`,
            },
          ]
        : []),
    ],
    connections,
    'No connections yet: invite one with POST /api/v1/util/sellers-and-vendors/invite or `mktdata connections add`.',
  );
  return `${table}<h2>The last 90 days published</h2>${await dailyCharts(ctx, new Map(connections.map((c) => [c.id, c.name])))}`;
}

/** One chart per connection and currency: total sales, ad spend and profit per day (mkt_profit_by_date). */
async function dailyCharts(ctx: PageContext, names: Map<string, string>): Promise<string> {
  const today = ctx.now.toISOString().slice(0, 10);
  const { daily } = await snapshotFigures(ctx.home, today);
  const mine = daily.filter((d) => names.has(d.connectionId));
  if (mine.length === 0) return '<p class="muted">No profit figures published for the last 90 days yet.</p>';
  const charts = mine.map((d, i) =>
    chartFigure(`daily-${i}`, {
      title: `${names.get(d.connectionId)}: daily sales, ad spend and profit`,
      unit: d.currency,
      x: d.dates,
      series: [
        { label: 'Total sales', values: d.totalSales },
        { label: 'Ad spend', values: d.adSpend },
        { label: 'Profit', values: d.profit },
      ],
    }),
  );
  return `<div class="charts">${charts.join('')}</div>`;
}
