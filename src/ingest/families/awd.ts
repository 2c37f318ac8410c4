import type { z } from 'zod';
import type { FlatColumn } from '../flat-file.ts';
import { operationFetch } from '../fetch-spec.ts';
import { jsonSource, type JsonRecord } from '../json-records.ts';
import { RefusedFile, type Source } from '../source.ts';

export const text = (name: string, required?: FlatColumn['required']): FlatColumn => ({
  name,
  type: 'text',
  ...(required ? { required } : {}),
});
export const timestamp = (name: string): FlatColumn => ({ name, type: 'timestamp' });
export const integer = (name: string): FlatColumn => ({ name, type: 'integer' });
/** A nested object or array, landed as its JSON text; staging casts it to JSON. */
export const json = (name: string): FlatColumn => ({ name, type: 'text' });

/** An AWD API operation as mktdata lands it: one raw row per record of its response. */
export interface AwdOperation {
  /** Key of the response's record array; null when the response is the record itself. */
  listKey: string | null;
  schema: z.ZodType;
  /** The record's top-level fields; every other field lands in `_extra`. */
  columns: FlatColumn[];
}

export const addresses = [json('destinationAddress'), json('originAddress')];
export const times = [timestamp('createdAt'), timestamp('updatedAt')];

const isObject = (value: unknown): value is JsonRecord =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** `outboundShipments.0.shipmentId` → `outboundShipments[0].shipmentId`. */
const fieldPath = (path: PropertyKey[]) =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i > 0 ? '.' : ''}${String(p)}`)).join('');

/**
 * The records of an AWD API response (not wrapped in `payload`): the record array under `listKey`, or the
 * document itself. An error response, another operation's response or a record of the wrong shape is
 * refused with the record number and field. `nextToken` is pagination, not data.
 */
function recordsOf(name: string, operation: AwdOperation, document: unknown): JsonRecord[] {
  if (!isObject(document)) throw new RefusedFile(null, `expected the JSON object of an AWD ${name} response`);
  if (Array.isArray(document.errors)) {
    const first = document.errors[0] as { code?: string; message?: string } | undefined;
    throw new RefusedFile(
      null,
      `an error response of the AWD API, not data: ${first?.code ?? ''} ${first?.message ?? ''}`.trim(),
    );
  }
  let items: unknown = [document];
  if (operation.listKey) {
    items = document[operation.listKey];
    // An empty page may omit the array; any other document without it is another operation's response.
    const others = Object.keys(document).filter((key) => key !== 'nextToken');
    if (items === undefined && others.length === 0) return [];
    if (!Array.isArray(items))
      throw new RefusedFile(
        null,
        `not an AWD ${name} response: no ${operation.listKey} array (fields: ${others.join(', ')})`,
      );
  }
  return (items as unknown[]).map((item, i) => {
    const parsed = operation.schema.safeParse(item);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new RefusedFile(i + 1, `record ${i + 1}: ${fieldPath(issue.path) || 'record'}: ${issue.message}`);
    }
    return item as JsonRecord;
  });
}

/**
 * An AWD API 2024-05-09 operation as a source (upstream-formats f3): `awd.listOutbounds` lands in
 * `raw.awd_list_outbounds`, one row per record of its responses, and is fetched by that operation.
 */
export function awdSource(name: string, operation: AwdOperation): Source {
  return {
    ...jsonSource(
      `awd.${name}`,
      `raw.awd_${name.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase()}`,
      operation.columns,
      (document) => recordsOf(name, operation, document),
    ),
    fetch: operationFetch(`awd.${name}`, 'none'),
  };
}
