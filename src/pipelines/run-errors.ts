import type { FetchGap } from './fetch/fetch-stage.ts';
import type { Pipeline } from './pipeline-config.ts';
import type { PlannedWindow } from './plan.ts';

// What a run did not do, in the words its record and `mktdata runs` give: windows whose data did not come, failed
// requests, refused files.

/** What a run's record says went wrong, or null. */
export function runError(windows: { status: string }[], fetchFailures: number, refused: number): string | null {
  const notDone = windows.filter((w) => w.status !== 'success').length;
  const parts = [
    notDone > 0 ? `${notDone} window(s) not done` : '',
    fetchFailures > 0 ? `${fetchFailures} fetch request(s) failed` : '',
    refused > 0 ? `${refused} file(s) refused` : '',
  ].filter(Boolean);
  return parts.length > 0 ? `${parts.join(', ')}: see mktdata runs; the next run retries them` : null;
}

/**
 * For each (connection, table) window, the first range its table's sources lack that it overlaps, as its error:
 * a window whose data did not come is not done, however its models ran.
 */
export function lacking(pipeline: Pipeline, gaps: FetchGap[]): (window: PlannedWindow) => string | null {
  const sourcesOf = new Map(pipeline.tables.map((t) => [t.name, new Set(t.sources)]));
  return (w) => {
    const mine = gaps.filter(
      (g) =>
        g.connectionId === w.connectionId &&
        sourcesOf.get(w.table)?.has(g.source) &&
        (g.from === null || w.from === null || (g.from <= w.to! && w.from <= g.to!)),
    );
    if (mine.length === 0) return null;
    const g = mine[0]!;
    const more = mine.length > 1 ? ` (and ${mine.length - 1} more range(s))` : '';
    return `${g.source} ${g.from === null ? 'snapshot' : `${g.from}..${g.to}`}: ${g.reason}${more}`;
  };
}
