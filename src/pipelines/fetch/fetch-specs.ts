import type { Api } from '../../connectors/credentials.ts';
import type { FetchSpec } from '../../ingest/fetch-spec.ts';
import { sources } from '../../ingest/sources/index.ts';

export { isDated, type FetchSpec } from '../../ingest/fetch-spec.ts';

/**
 * How the connectors obtain each source, by source name, as the sources declare it (in the registry's order, which is
 * the order requests are planned in). Unit costs and promotions have no public operation: they come from dropped
 * files (and the API, for unit costs) only.
 */
export const fetchSpecs: ReadonlyMap<string, FetchSpec> = new Map(
  sources.flatMap((s): [string, FetchSpec][] => (s.fetch ? [[s.name, s.fetch]] : [])),
);

/** The API a source is fetched from, or null when it has no upstream operation. */
export const sourceApi = (source: string): Api | null => fetchSpecs.get(source)?.api ?? null;
