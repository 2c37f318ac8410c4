import { Marked } from 'marked';
import { catalogSources, findSources, searchText } from '../../catalog/catalog.ts';
import { tablePage } from '../../catalog/markdown.ts';
import { loadModels } from '../../models/load-models.ts';
import { lineage } from '../../models/lineage.ts';
import { dataTable, html } from '../layout.ts';
import { type Freshness } from '../../catalog/catalog.ts';

/**
 * `/catalog`: the catalog's tables with a search box. Without JavaScript the form searches on the server (`?q=`, the
 * spec endpoint's `query` match); with it, the list filters as one types, by the same text.
 */
export function catalogIndexPage(q: string): string {
  const shown = new Set(findSources({ query: q }).map((s) => s.tableName));
  const items = catalogSources()
    .map(
      (s) =>
        `<li data-search="${html(searchText(s))}"${shown.has(s.tableName) ? '' : ' hidden'}><a href="/catalog/${encodeURIComponent(s.tableName)}">${html(s.tableName)}</a> · ${html(s.name)}<br><span class="muted">${html(s.description.split('\n')[0]!)}</span></li>`,
    )
    .join('\n');
  return `<form role="search" method="get" action="/catalog"><label for="catalog-search">Search tables, columns and descriptions</label><br>
<input type="search" id="catalog-search" name="q" value="${html(q)}" autocomplete="off"> <button type="submit">Search</button></form>
<p class="muted">${shown.size} of ${catalogSources().length} tables.</p><ul class="catalog">${items}</ul>`;
}

// The page's own title is its one h1: the data-scheme page's headings move one level down.
const markdown = new Marked({
  walkTokens: (token) => void (token.type === 'heading' && (token.depth = Math.min(6, token.depth + 1))),
});

/**
 * `/catalog/:table`: the table's data-scheme page (the spec endpoint's markdown) rendered; null for an unknown table.
 */
export function catalogTablePage(name: string, freshness: Freshness | undefined): string | null {
  const sources = catalogSources().filter((s) => s.tableName === name);
  if (sources.length === 0) return null;
  // The markdown is generated from the project's own model files, not from users' input.
  return `<p><a href="/api/v1/spec/data-scheme/${encodeURIComponent(name)}.md">Markdown</a></p><div class="md">${markdown.parse(tablePage(name, sources, freshness), { async: false })}</div>${lineageSection(name)}`;
}

/**
 * The table's lineage (`mktdata docs <table>`): grain, what it reads, the rules it implements and where, its checks.
 */
function lineageSection(name: string): string {
  const l = lineage(loadModels(), `marts.${name}`);
  const list = (ids: string[]) =>
    ids.length === 0
      ? '<p class="muted">None.</p>'
      : `<ul>${ids.map((id) => `<li><code>${html(id)}</code></li>`).join('')}</ul>`;
  return `<h2>Lineage</h2><p>Grain: ${html(l.grain)} (${html(l.materialized)})</p><h3>Reads</h3>${list(l.reads)}<h3>Read by</h3>${list(l.readBy)}
<h3>Rules</h3>${dataTable(
    'Spec rules this table implements, and the model where each lives',
    [
      { header: 'Rule', cell: (r) => html(r.rule) },
      { header: 'Lives in', cell: (r) => `<code>${html(r.in)}</code>` },
    ],
    l.rules,
    'No spec rule beyond its columns.',
  )}
<details><summary>Checks (${l.checks.length})</summary>${list(l.checks)}</details>`;
}
