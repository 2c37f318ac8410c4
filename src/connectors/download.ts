import { createHash } from 'node:crypto';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createGunzip } from 'node:zlib';
import { ConnectorError, withoutQuery } from './connector-error.ts';
import { fetchOrThrow } from './retry.ts';
import type { Clock } from '../time/clock.ts';

/** What a download wrote. */
export interface Downloaded {
  bytes: number;
  sha256: string;
  contentType: string | null;
  charset: string | null;
}

/** The stream with its first chunk looked at: whether it starts with gzip's magic bytes. */
async function peek(body: Readable): Promise<{ stream: Readable; gzip: boolean }> {
  const iterator = body[Symbol.asyncIterator]();
  const first = await iterator.next();
  const head = first.done ? Buffer.alloc(0) : Buffer.from(first.value as Uint8Array);
  async function* all() {
    if (head.length > 0) yield head;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value as Uint8Array;
  }
  return { stream: Readable.from(all()), gzip: head[0] === 0x1f && head[1] === 0x8b };
}

/**
 * Downloads a pre-signed document link (SP-API report documents, Ads report files) without API headers, streaming
 * it to `<file>.partial` (gunzipped when the bytes are gzip; a server that sent Content-Encoding: gzip was decoded by
 * fetch already) and renaming it to `file` only when whole. An expired link is `link-expired`; a truncated body
 * throws and leaves no file. The document is never held in memory.
 */
export async function downloadDocument(
  url: string,
  options: { file: string; clock?: Clock; signal?: AbortSignal },
): Promise<Downloaded> {
  const operation = `download ${withoutQuery(url)}`;
  const response = await fetchOrThrow(url, { signal: options.signal }, 'download');
  if (!response.ok || !response.body) {
    const text = (await response.text()).slice(0, 500);
    const kind =
      response.status === 403 && /expired/i.test(text)
        ? 'link-expired'
        : response.status >= 500
          ? 'server'
          : response.status === 403
            ? 'link-expired'
            : 'not-found';
    throw new ConnectorError(
      kind,
      `HTTP ${response.status}${/<Message>([^<]*)/.exec(text)?.[1] ? `: ${/<Message>([^<]*)/.exec(text)![1]}` : ''}`,
      { status: response.status, operation },
    );
  }
  const partial = `${options.file}.partial`;
  const hash = createHash('sha256');
  let bytes = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  try {
    const { stream, gzip } = await peek(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>));
    if (gzip) await pipeline(stream, createGunzip(), count, createWriteStream(partial));
    else await pipeline(stream, count, createWriteStream(partial));
    renameSync(partial, options.file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw new ConnectorError('network', `the download broke off: ${(error as Error).message}`, {
      operation,
      cause: error,
    });
  }
  const contentType = response.headers.get('content-type');
  return {
    bytes,
    sha256: hash.digest('hex'),
    contentType,
    charset: /charset=([^;\s]+)/i.exec(contentType ?? '')?.[1] ?? null,
  };
}
