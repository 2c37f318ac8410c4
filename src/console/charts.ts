import { dataTable, html } from './layout.ts';

/** One line of a chart: its label and a value per x (null where there is none). */
export interface ChartSeries {
  label: string;
  values: (number | null)[];
}

/** A chart's data: x as ISO dates or timestamps, and its lines. */
export interface ChartData {
  title: string;
  /** What the y axis counts (a currency, seconds). */
  unit: string;
  x: string[];
  series: ChartSeries[];
}

/**
 * A chart drawn by uPlot in the browser from the JSON beside it, with the same figures as a table for readers without
 * JavaScript or a screen: the figure never depends on the script to say what it shows.
 */
export function chartFigure(id: string, data: ChartData): string {
  // </script> cannot end the JSON early: every '<' is escaped.
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  const rows = data.x.map((x, i) => ({ x, values: data.series.map((s) => s.values[i] ?? null) }));
  const table = dataTable(
    `${data.title} (${data.unit})`,
    [
      { header: 'x', cell: (r) => html(r.x) },
      ...data.series.map((s, j) => ({
        header: s.label,
        cell: (r: (typeof rows)[number]) => (r.values[j] === null ? '—' : String(r.values[j])),
        num: true,
      })),
    ],
    rows,
  );
  return `<figure class="chart-box"><figcaption><strong>${html(data.title)}</strong> <span class="muted">(${html(data.unit)})</span></figcaption>
<div class="chart" data-chart="${html(id)}" role="img" aria-label="${html(`${data.title}: ${data.series.map((s) => s.label).join(', ')} over ${data.x.length} points`)}"></div>
<script type="application/json" id="${html(id)}">${json}</script>
<details><summary>Figures</summary>${table}</details></figure>`;
}

/** The console's script: draws every chart with uPlot and filters the catalog as one types. */
export const consoleScript = `(() => {
  const palette = ['#1a7f37', '#0969da', '#cf222e', '#8250df'];
  window.mktdataCharts = {};
  const draw = (el) => {
    const data = JSON.parse(document.getElementById(el.dataset.chart).textContent);
    const xs = data.x.map((x) => Date.parse(x.length === 10 ? x + 'T00:00:00Z' : x) / 1000);
    const opts = {
      width: Math.max(260, el.clientWidth), height: 220, tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      series: [{}, ...data.series.map((s, i) => ({ label: s.label, stroke: palette[i % palette.length], width: 2, points: { show: xs.length < 120 } }))],
      axes: [{}, { label: data.unit, size: 60 }],
    };
    el.textContent = '';
    window.mktdataCharts[el.dataset.chart] = new uPlot(opts, [xs, ...data.series.map((s) => s.values)], el);
  };
  const drawAll = () => document.querySelectorAll('[data-chart]').forEach(draw);
  document.readyState === 'loading' ? document.addEventListener('DOMContentLoaded', drawAll) : drawAll();
  let resize;
  window.addEventListener('resize', () => { clearTimeout(resize); resize = setTimeout(() => {
    for (const [id, u] of Object.entries(window.mktdataCharts)) u.setSize({ width: Math.max(260, document.querySelector('[data-chart="' + id + '"]').clientWidth), height: 220 });
  }, 150); });
  const search = document.getElementById('catalog-search');
  if (search) search.addEventListener('input', () => {
    const q = search.value.trim().toLowerCase();
    document.querySelectorAll('[data-search]').forEach((row) => { row.hidden = q !== '' && !row.dataset.search.includes(q); });
  });
})();
`;
