import { createReadStream, createWriteStream, openSync, readSync, closeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createGunzip, gunzipSync } from 'node:zlib';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import iconv from 'iconv-lite';

/** sha256 of a file's bytes, streamed in 1 MiB chunks (the default 64 KiB ones make hashing 2.5x slower). */
export async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path, { highWaterMark: 1 << 20 }), hash);
  return hash.digest('hex');
}

/**
 * Why a gzip file is not whole (cut short, its trailer missing, or corrupt), or null when it is whole or not gzip.
 * A reader that stops at the damage would land the lines before it as if they were the file.
 */
export async function gzipDamage(path: string): Promise<string | null> {
  if (!isGzip(path)) return null;
  try {
    await pipeline(
      createReadStream(path),
      createGunzip(),
      new Writable({ write: (_chunk, _encoding, done) => done() }),
    );
    return null;
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    return e.code === 'Z_BUF_ERROR'
      ? 'the gzip stream is cut short (unexpected end of file): the file is incomplete'
      : `the gzip stream is damaged: ${e.message}`;
  }
}

/** True when the file starts with the gzip magic bytes. */
export function isGzip(path: string): boolean {
  const head = readHead(path, 2);
  return head.length === 2 && head[0] === 0x1f && head[1] === 0x8b;
}

function readHead(path: string, bytes: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const read = readSync(fd, buffer, 0, bytes, 0);
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/** The first line of a (possibly gzipped) text file, decoded as UTF-8 or else the fallback, without BOM. */
export function readFirstLine(path: string, fallback: string): string | null {
  let head = readHead(path, 256 * 1024);
  if (head.length === 0) return null;
  if (head[0] === 0x1f && head[1] === 0x8b) {
    try {
      head = gunzipSync(head, { finishFlush: 2 /* Z_SYNC_FLUSH: a prefix is enough */ });
    } catch {
      return null;
    }
  }
  const end = head.indexOf(0x0a);
  const line = end === -1 ? head : head.subarray(0, end);
  return decode(line, fallback)
    .replace(/^\uFEFF/, '')
    .replace(/\r$/, '');
}

function decode(bytes: Buffer, fallback: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return iconv.decode(bytes, fallback);
  }
}

/**
 * Writes a UTF-8 copy of a (possibly gzipped) file in the fallback encoding (cp1252, shift_jis).
 * iconv-lite, not TextDecoder: Node 20's 'windows-1252' decoder is plain latin-1 (0x80 is not €).
 */
export async function transcodeToUtf8(path: string, target: string, encoding: string): Promise<void> {
  const stages = isGzip(path) ? [createGunzip()] : [];
  await pipeline(
    createReadStream(path),
    ...stages,
    iconv.decodeStream(encoding),
    iconv.encodeStream('utf8'),
    createWriteStream(target),
  );
}

/** The fallback encoding of flat files in a marketplace: cp932 in Japan, cp1252 elsewhere. */
export function fallbackEncoding(marketplaceId: string): string {
  return marketplaceId === 'A1VC38T7YXB528' ? 'cp932' : 'cp1252';
}
