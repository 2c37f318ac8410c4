import { html } from '../lib/html.ts';
import type { ConsoleScope } from './scope.ts';

export { html };

/** The console's pages, in the order of its navigation. */
export const consolePages = [
  { path: '/', title: 'Connections' },
  { path: '/runs', title: 'Runs' },
  { path: '/tables', title: 'Tables' },
  { path: '/quarantine', title: 'Refused files' },
  { path: '/exports', title: 'Exports' },
  { path: '/webhooks', title: 'Webhooks' },
  { path: '/catalog', title: 'Catalog' },
] as const;

// Readable at 375 px: one column, tables scroll sideways inside their own region, nothing wider than the screen.
const css = `
:root{color-scheme:light;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--bg:#fff;--soft:#f6f8fa;--ok:#1a7f37;--warn:#9a6700;--bad:#cf222e;--link:#0550ae}
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--link)}a:focus-visible,button:focus-visible,input:focus-visible,[tabindex]:focus-visible{outline:3px solid #0969da;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:4px 8px;z-index:2}
header{border-bottom:1px solid var(--line);background:var(--soft);padding:8px 16px}
header .brand{font-weight:600;margin-right:16px}
nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:4px 14px}
nav a[aria-current=page]{font-weight:600;color:var(--fg)}
.who{font-size:13px;color:var(--muted);display:flex;gap:12px;align-items:center;flex-wrap:wrap;margin-top:4px}
main{padding:12px 16px;max-width:1200px}
h1{font-size:22px;margin:8px 0 12px}h2{font-size:18px;margin:24px 0 8px}
.scroll{overflow-x:auto;max-width:100%;border:1px solid var(--line);border-radius:6px}
table{border-collapse:collapse;width:100%;font-size:14px}caption{text-align:left;padding:6px 8px;color:var(--muted)}
th,td{padding:5px 8px;border-top:1px solid var(--line);text-align:left;vertical-align:top}th{background:var(--soft);white-space:nowrap}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.badge{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;font-weight:600;border:1px solid currentColor;white-space:nowrap}
.ok{color:var(--ok)}.warn{color:var(--warn)}.bad{color:var(--bad)}.muted{color:var(--muted)}
.error{color:var(--bad);white-space:pre-wrap;word-break:break-word;max-width:40em}
.chart{min-height:40px;margin:8px 0}.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));gap:12px}
form.inline{display:inline}button{font:inherit;padding:2px 10px;cursor:pointer}
input[type=search],input[type=password]{font:inherit;padding:4px 8px;width:100%;max-width:28em}
.tl{position:relative;height:26px;background:var(--soft);border:1px solid var(--line);border-radius:4px;margin:4px 0}
.tl span{position:absolute;top:3px;height:18px;min-width:3px;border-radius:3px;background:#0969da}.tl span.bad{background:var(--bad)}
.md{overflow-x:auto}.md table{width:auto}.md code{background:var(--soft);padding:0 3px}
.catalog li,main p,main li,figcaption{overflow-wrap:anywhere}
`;

/** A console page: skip link, navigation, who is signed in, then the body. */
export function consolePage(
  scope: ConsoleScope,
  path: string,
  title: string,
  body: string,
  options: { scripts?: boolean } = {},
): string {
  const nav = consolePages
    .map((p) => `<li><a href="${p.path}"${p.path === path ? ' aria-current="page"' : ''}>${html(p.title)}</a></li>`)
    .join('');
  const who = scope.operator ? 'operator (every organization)' : `organization ${html(scope.organizationName)}`;
  const scripts = options.scripts
    ? '<link rel="stylesheet" href="/assets/uplot.min.css"><script src="/assets/uplot.min.js" defer></script><script src="/assets/console.js" defer></script>'
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(title)} · mktdata</title><style>${css}</style>${scripts}</head><body>
<a class="skip" href="#main">Skip to content</a>
<header><nav aria-label="Console"><ul><li class="brand">mktdata</li>${nav}</ul></nav>
<div class="who"><span>Signed in as ${who}</span><form class="inline" method="post" action="/logout"><button type="submit">Sign out</button></form></div></header>
<main id="main" tabindex="-1"><h1>${html(title)}</h1>${body}</main></body></html>`;
}

/** A column of a data table: header, cell (HTML), and whether it holds numbers. */
export interface Column<T> {
  header: string;
  cell: (row: T) => string;
  num?: boolean;
}

/** An accessible data table in a scrollable region; `empty` is said instead when there are no rows. */
export function dataTable<T>(caption: string, columns: Column<T>[], rows: T[], empty = 'None.'): string {
  if (rows.length === 0) return `<p class="muted">${html(empty)}</p>`;
  const head = columns.map((c) => `<th scope="col">${html(c.header)}</th>`).join('');
  const body = rows
    .map((r) => `<tr>${columns.map((c) => `<td${c.num ? ' class="num"' : ''}>${c.cell(r)}</td>`).join('')}</tr>`)
    .join('\n');
  return `<div class="scroll" role="region" aria-label="${html(caption)}" tabindex="0"><table><caption>${html(caption)}</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`;
}

/** A status word in a coloured pill; the word carries the meaning, the colour only repeats it. */
export function badge(text: string, tone: 'ok' | 'warn' | 'bad' | 'muted'): string {
  return `<span class="badge ${tone}">${html(text)}</span>`;
}

/** The tone of a run, window, export or delivery status. */
export function statusTone(status: string | null | undefined): 'ok' | 'warn' | 'bad' | 'muted' {
  const s = (status ?? '').toLowerCase();
  if (['success', 'completed', 'delivered', 'landed', 'active', 'complete', 'empty'].includes(s)) return 'ok';
  if (['error', 'failed', 'needs_reauthorization', 'abandoned', 'refused'].includes(s)) return 'bad';
  if (
    ['running', 'partial', 'pending', 'in_progress', 'requested', 'planned', 'first_stage', 'second_stage'].includes(s)
  )
    return 'warn';
  return 'muted';
}

/** A timestamp as UTC minutes (`2026-10-16 12:00`), in a <time> element; an em dash when absent. */
export function when(value: string | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return html(String(value));
  const iso = date.toISOString();
  return `<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')}</time>`;
}

/** Milliseconds as people read them: 850 ms, 12.4 s, 3 min 5 s. */
export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** A count with thousands separators. */
export const count = (n: number | string | null | undefined): string =>
  n === null || n === undefined ? '—' : Number(n).toLocaleString('en-US');

/** Text in a cell, escaped; an em dash when absent. */
export const text = (value: string | number | null | undefined): string =>
  value === null || value === undefined || value === '' ? '—' : html(String(value));
