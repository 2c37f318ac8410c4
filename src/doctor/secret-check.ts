import { existsSync } from 'node:fs';
import { MktdataError } from '../errors.ts';
import { readAllCredentials, credentialStates, type Credentials } from '../connectors/credentials.ts';
import type { Warehouse } from '../db/warehouse.ts';
import { secretKey, secretKeyFile } from '../lib/secrets.ts';
import { fail, ok, type CheckResult } from './check.ts';

const name = 'secret key';

/** What the secret-key check found: its line, and the decrypted credentials when it could read them. */
export interface SecretFindings {
  result: CheckResult;
  /** Every stored credential, decrypted (in memory only); null when they cannot be read. */
  credentials: Credentials[] | null;
}

/**
 * The key that encrypts stored refresh tokens is there (`secret.key` or MKTDATA_SECRET_KEY) and decrypts every stored
 * credential. It never makes a key: `secretKey` creates `secret.key` when it is missing, which would hide a lost key
 * behind a new one that decrypts nothing.
 */
export async function secretKeyCheck(wh: Warehouse): Promise<SecretFindings> {
  const env = process.env;
  const stored = (await credentialStates(wh.db)).length;
  const file = secretKeyFile(wh.home);
  const fromEnv = env.MKTDATA_SECRET_KEY !== undefined;
  const where = fromEnv ? 'MKTDATA_SECRET_KEY' : file;
  if (!fromEnv && !existsSync(file)) {
    if (stored === 0)
      return {
        result: ok(
          name,
          `no key yet and nothing stored needs one: ${file} is created (0600) when credentials are first stored`,
        ),
        credentials: [],
      };
    return {
      result: fail(
        name,
        `the home holds ${stored} stored credential${stored === 1 ? '' : 's'} but no secret.key and MKTDATA_SECRET_KEY is not set`,
        `restore the key from your backup (${file}, 0600) or set MKTDATA_SECRET_KEY; without it the credentials cannot be read`,
      ),
      credentials: null,
    };
  }
  try {
    secretKey(wh.home);
    const credentials = [...(await readAllCredentials(wh)).values()].flatMap((byApi) => Object.values(byApi));
    return {
      result: ok(
        name,
        stored === 0
          ? `${where} is there (no credentials are stored yet)`
          : `${where} is there and decrypts the ${stored} stored credential${stored === 1 ? '' : 's'}`,
      ),
      credentials,
    };
  } catch (error) {
    if (!(error instanceof MktdataError)) throw error;
    const fix =
      error.code === 'ERR_SECRET_UNREADABLE'
        ? `restore the key these credentials were stored with (from your backup), or store them again with \`mktdata connections credentials\``
        : 'fix what the message names';
    return { result: fail(name, `${where}: ${error.message}`, fix), credentials: null };
  }
}
