import { loadPipelines } from './pipeline-config.ts';

/** What the next pipeline runs rebuild after a unit-cost change: every table fed by unit costs, from `from` on. */
export interface CogsRebuild {
  from: string;
  windows: { pipeline: string; table: string; from: string | null }[];
}

/**
 * The tables the `cogs` source feeds, by pipeline: dated ones from the change's earliest fromDate, the others whole.
 */
export function cogsRebuild(from: string): CogsRebuild {
  const windows = loadPipelines()
    .filter((p) => p.sources.cogs !== undefined)
    .flatMap((p) =>
      p.tables
        .filter((t) => t.sources.includes('cogs'))
        .map((t) => ({ pipeline: p.name, table: t.name, from: t.dated ? from : null })),
    );
  return { from, windows };
}
