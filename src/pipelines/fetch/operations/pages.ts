import { renameSync, writeFileSync } from 'node:fs';
import { documentPath, writeSidecar } from '../document-file.ts';
import type { FetchRequest } from '../fetch-requests.ts';
import type { HandlerContext } from '../handler.ts';

/** What an operation fetcher does with each answer it keeps: a JSON document written to landing/, landed at the end. */
export interface PageWriter {
  write(document: unknown, details: Record<string, unknown>): void;
  readonly files: string[];
}

/** Writes each kept answer as one document (`<stamp>-<request id>-p001.json`, …) with its sidecar. */
export function pageWriter(ctx: HandlerContext, request: FetchRequest): PageWriter {
  const at = ctx.clock.now();
  const files: string[] = [];
  return {
    files,
    write(document, details) {
      const part = files.length + 1;
      const file = documentPath(ctx.wh.home, request, {
        upstreamId: request.id.slice(0, 8),
        extension: 'json',
        part,
        at,
      });
      writeSidecar(file, request, {
        api: 'sp-api',
        ...details,
        part,
        fetchedAt: new Date(ctx.clock.now()).toISOString(),
      });
      writeFileSync(`${file}.tmp`, JSON.stringify(document));
      renameSync(`${file}.tmp`, file);
      files.push(file);
    },
  };
}

/** A query parameter list as the SP-API takes it: comma-separated. */
export const csv = (values: string[]): string => values.join(',');
