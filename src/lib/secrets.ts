import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MktdataError } from '../errors.ts';
import type { Home } from '../home.ts';

/** Where the key that encrypts a home's secrets lives when MKTDATA_SECRET_KEY is not set. */
export const secretKeyFile = (home: Home): string => join(home.root, 'secret.key');

/**
 * The key that encrypts connection secrets at rest: MKTDATA_SECRET_KEY (any text; hashed to 32 bytes), else the
 * 0600 file `secret.key` in the home, created on first use. A key file others can read is refused.
 */
export function secretKey(home: Home, env: NodeJS.ProcessEnv = process.env): Buffer {
  const fromEnv = env.MKTDATA_SECRET_KEY;
  if (fromEnv !== undefined) {
    if (fromEnv.length < 16)
      throw new MktdataError('ERR_INPUT_INVALID', {
        where: 'MKTDATA_SECRET_KEY',
        reason: 'use at least 16 characters (e.g. `openssl rand -base64 32`)',
      });
    return createHash('sha256').update(fromEnv).digest();
  }
  const file = secretKeyFile(home);
  if (!existsSync(file)) {
    mkdirSync(home.root, { recursive: true });
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
  }
  if ((statSync(file).mode & 0o077) !== 0) {
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: file,
      reason: 'the secret key file is readable by other users: `chmod 600` it',
    });
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32)
    throw new MktdataError('ERR_INPUT_INVALID', { where: file, reason: 'not a base64 32-byte key' });
  return key;
}

/**
 * AES-256-GCM with a random nonce; `context` (e.g. connection and API) is authenticated, so a value cannot be moved.
 */
export function encryptSecret(key: Buffer, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
}

/** The plaintext of `encryptSecret`; a wrong key or a tampered value fails with a clear error. */
export function decryptSecret(key: Buffer, stored: string, context: string): string {
  if (!stored.startsWith('v1:')) throw new MktdataError('ERR_SECRET_UNREADABLE', { context, reason: 'unknown format' });
  const raw = Buffer.from(stored.slice(3), 'base64');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch (error) {
    throw new MktdataError(
      'ERR_SECRET_UNREADABLE',
      { context, reason: 'the secret key does not match (was MKTDATA_SECRET_KEY or secret.key changed?)' },
      { cause: error },
    );
  }
}
