import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Home } from '../../home.ts';
import type { FetchRequest } from './fetch-requests.ts';
import { sidecarOf } from '../../home.ts';

/** Where a fetched document goes: the landing folder of its connection and source, named after its window and id. */
export function documentPath(
  home: Home,
  request: FetchRequest,
  name: { upstreamId: string; extension: string; part?: number; at: number },
): string {
  const folder = join(home.landing, request.connectionId, request.source);
  mkdirSync(folder, { recursive: true });
  const window =
    request.from === null
      ? new Date(name.at).toISOString().replace(/[-:]|\.\d+/g, '')
      : `${request.from}_${request.to}`;
  const part = name.part === undefined ? '' : `-p${String(name.part).padStart(3, '0')}`;
  return join(folder, `${window}-${name.upstreamId.replace(/[^\w.-]/g, '_')}${part}.${name.extension}`);
}

/** The file extension of a downloaded document, from its Content-Type. */
export const extensionOf = (contentType: string | null): string =>
  contentType && /json/i.test(contentType) ? 'json' : 'tsv';

/**
 * Writes the sidecar of a document before the document itself: what was asked (source, window, request, ids)
 * and when, so that every landed file can be traced to its request and re-parsed without asking again.
 */
export function writeSidecar(file: string, request: FetchRequest, details: Record<string, unknown>): void {
  const sidecar = {
    fetchRequestId: request.id,
    connectionId: request.connectionId,
    source: request.source,
    window: request.from === null ? null : { from: request.from, to: request.to },
    request: request.request,
    ...details,
  };
  writeFileSync(sidecarOf(file), `${JSON.stringify(sidecar, null, 2)}\n`);
}
