import type { CatalogSource } from './catalog.ts';
import { type Freshness } from './catalog.ts';

const escape = (text: string) =>
  text
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
const firstSentence = (text: string) => escape(text).split(/(?<=\.)\s/)[0]!;
const sourceTypes = ['SELLER_CENTRAL', 'VENDOR_CENTRAL', 'MKT_ADS'] as const;

/** The data-scheme index: one section per source type, one linked entry per table. */
export function dataSchemeIndex(sources: CatalogSource[]): string {
  const lines = ['# Data scheme', '', 'Catalog tables by source type. Each links to its page with the columns.', ''];
  for (const type of sourceTypes) {
    const ofType = sources.filter((s) => s.type === type);
    if (ofType.length === 0) continue;
    lines.push(`## ${type}`, '');
    for (const s of ofType)
      lines.push(`- [${s.name}](data-scheme/${s.tableName}.md) \`${s.tableName}\`: ${firstSentence(s.description)}`);
    lines.push('');
  }
  if (sources.length === 0) lines.push('No table matches the filters.', '');
  return lines.join('\n');
}

/** A table's page: one section per source type the table exists in. */
export function tablePage(tableName: string, sources: CatalogSource[], freshness?: Freshness): string {
  const lines = [`# ${tableName}`, ''];
  for (const s of sources) {
    lines.push(`## ${s.name} (${s.type})`, '', escape(s.description), '');
    lines.push(`- id: \`${s.id}\``);
    lines.push(
      `- requiresDatePeriod: ${s.requiresDatePeriod}; isPremium: ${s.isPremium}; defaultDataset: ${s.defaultDataset}; containsPii: ${s.containsPii}; enabled: ${s.enabled}`,
    );
    lines.push(
      `- fetchPeriods: ${s.fetchPeriods.map((p) => [p.type, 'numberOfDays' in p ? `${p.numberOfDays} days` : '', 'shiftDays' in p ? `shifted ${p.shiftDays} days` : ''].filter(Boolean).join(' ')).join(', ')}`,
    );
    if (s.dataAvailability)
      lines.push(
        `- dataAvailability: ${s.dataAvailability.type}, refreshed at ${s.dataAvailability.refreshAt}. ${escape(s.dataAvailability.description)}`,
      );
    if (freshness) {
      const refreshed = freshness.lastRefreshedAt ? `last refreshed ${freshness.lastRefreshedAt}` : 'not refreshed yet';
      const final = freshness.finalThrough
        ? `final through ${freshness.finalThrough} (scheduled refreshes no longer change earlier dates)`
        : 'no final date (a snapshot, or no run yet)';
      const fetchedAt = freshness.lastFetchedAt
        ? `last fetched ${freshness.lastFetchedAt}`
        : 'never fetched by the live connectors';
      const failed =
        freshness.failedFetches > 0 ? `; ${freshness.failedFetches} failed fetch(es), see \`mktdata runs\`` : '';
      lines.push(`- freshness: ${refreshed}; ${final}; ${fetchedAt}${failed}`);
    }
    if (s.searchAliases?.length) lines.push(`- searchAliases: ${s.searchAliases.join(', ')}`);
    if (s.relatedActions?.length)
      lines.push(`- relatedActions: ${s.relatedActions.map((a) => `${a.type} (${a.relation})`).join(', ')}`);
    for (const issue of s.issues) lines.push(`- **${escape(issue.title)}**: ${escape(issue.description)}`);
    lines.push('', '| column | type | nullable | description |', '|---|---|---|---|');
    for (const c of s.columns) lines.push(`| ${c.name} | ${c.type} | ${c.nullable} | ${escape(c.description ?? '')} |`);
    lines.push('');
  }
  return lines.join('\n');
}

/** The Markdown page for an unknown table or an invalid file name; it never echoes the request. */
export const tableNotFoundPage = [
  '# Table not found',
  '',
  'No catalog table has this file name. Table pages are named `<table_name>.md`, for example',
  '`mkt_profit_by_date.md`; the index at `/api/v1/spec/data-scheme.md` lists them all.',
  '',
].join('\n');
