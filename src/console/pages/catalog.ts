import { Marked } from 'marked';
import { catalogSources, findSources, searchText } from '../../catalog/catalog.ts';
import { tablePage } from '../../catalog/markdown.ts';
import type { Freshness } from '../../pipelines/freshness.ts';
import { html } from '../layout.ts';

/**
 * `/catalog`: the catalog's tables with a search box. Without JavaScript the form searches on the server (`?q=`, the
 * spec endpoint's `query` match); with it, the list filters as one types, by the same text.
 */
export function catalogIndexPage(q: string): string {
  const shown = new Set(findSources({ query: q }).map((s) => s.tableName));
  const items = catalogSources()
    .map((s) => `<li data-search="${html(searchText(s))}"${shown.has(s.tableName) ? '' : ' hidden'}><a href="/catalog/${encodeURIComponent(s.tableName)}">${html(s.tableName)}</a> · ${html(s.name)}<br><span class="muted">${html(s.description.split('\n')[0]!)}</span></li>`)
    .join('\n');
  return `<form role="search" method="get" action="/catalog"><label for="catalog-search">Search tables, columns and descriptions</label><br>
<input type="search" id="catalog-search" name="q" value="${html(q)}" autocomplete="off"> <button type="submit">Search</button></form>
<p class="muted">${shown.size} of ${catalogSources().length} tables.</p><ul class="catalog">${items}</ul>`;
}

// The page's own title is its one h1: the data-scheme page's headings move one level down.
const markdown = new Marked({ walkTokens: (token) => void (token.type === 'heading' && (token.depth = Math.min(6, token.depth + 1))) });

/** `/catalog/:table`: the table's data-scheme page (the spec endpoint's markdown) rendered; null for an unknown table. */
export function catalogTablePage(name: string, freshness: Freshness | undefined): string | null {
  const sources = catalogSources().filter((s) => s.tableName === name);
  if (sources.length === 0) return null;
  // The markdown is generated from the project's own model files, not from users' input.
  return `<p><a href="/api/v1/spec/data-scheme/${encodeURIComponent(name)}.md">Markdown</a></p><div class="md">${markdown.parse(tablePage(name, sources, freshness), { async: false })}</div>`;
}
