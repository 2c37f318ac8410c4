import { readdirSync, readFileSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConnectorConfig, appCredentials, endpointsUnder } from '../../src/connectors/config.ts';
import {
  markNeedsReauthorization,
  readAllCredentials,
  requireCredentials,
  setCredentials,
} from '../../src/connectors/credentials.ts';
import { decryptSecret, encryptSecret, secretKey } from '../../src/lib/secrets.ts';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { makeHome, US, DE } from '../helpers/home.ts';

const TOKEN = 'Atzr|IwEBI-test-refresh-token-0123456789';

/** Every file of a folder, recursively. */
const filesOf = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesOf(join(dir, e.name)) : [join(dir, e.name)],
  );

describe('connection credentials', () => {
  let wh: Warehouse | undefined;
  afterEach(async () => {
    await wh?.close();
    wh = undefined;
  });

  it('stores refresh tokens encrypted in the home and reads them back', async () => {
    const made = await makeHome();
    wh = made.wh;
    await setCredentials(wh, US.id, { api: 'sp-api', refreshToken: TOKEN, sellingPartnerId: 'A1SELLERUS' });
    await setCredentials(wh, US.id, { api: 'ads', refreshToken: `${TOKEN}-ads`, profileId: '12345' });
    const sp = await requireCredentials(wh, US.id, 'sp-api');
    expect(sp).toMatchObject({
      refreshToken: TOKEN,
      sellingPartnerId: 'A1SELLERUS',
      region: 'NA',
      marketplaceId: US.marketplaceId,
      status: 'active',
    });
    expect((await requireCredentials(wh, US.id, 'ads')).profileId).toBe('12345');
    await expect(requireCredentials(wh, DE.id, 'sp-api')).rejects.toThrow(/has no SP-API credentials/);
    await wh.close();
    wh = undefined;
    // The key file is the owner's only; no file of the home holds the token in plain text.
    expect(statSync(join(made.home.root, 'secret.key')).mode & 0o777).toBe(0o600);
    for (const file of filesOf(made.home.root))
      expect(readFileSync(file).includes(Buffer.from('test-refresh-token'))).toBe(false);
  });

  it('marks credentials the marketplace refused as needing re-authorization', async () => {
    ({ wh } = await makeHome());
    await setCredentials(wh, DE.id, { api: 'sp-api', refreshToken: TOKEN, sellingPartnerId: 'A1SELLERDE' });
    // The DE connection was added without a seller id: the selling partner id of its credentials fills it in.
    expect(
      await wh.db
        .selectFrom('control.connections')
        .select('seller_id')
        .where('id', '=', DE.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ seller_id: 'A1SELLERDE' });
    await markNeedsReauthorization(wh, DE.id, 'sp-api', 'invalid_grant');
    expect((await readAllCredentials(wh)).get(DE.id)?.['sp-api']?.status).toBe('needs_reauthorization');
  });
});

describe('secrets', () => {
  it('binds a ciphertext to its context and refuses a wrong key', async () => {
    const { home, wh } = await makeHome();
    await wh.close();
    const key = secretKey(home);
    const stored = encryptSecret(key, TOKEN, 'conn-1/sp-api');
    expect(decryptSecret(key, stored, 'conn-1/sp-api')).toBe(TOKEN);
    // The same value moved to another connection does not decrypt (the context is authenticated).
    expect(() => decryptSecret(key, stored, 'conn-2/sp-api')).toThrow(/secret key does not match/);
    const other = secretKey(home, { MKTDATA_SECRET_KEY: 'another key of at least sixteen characters' });
    expect(() => decryptSecret(other, stored, 'conn-1/sp-api')).toThrow(/secret key does not match/);
    // A key file others can read is refused.
    chmodSync(join(home.root, 'secret.key'), 0o644);
    expect(() => secretKey(home)).toThrow(/readable by other users/);
  });
});

describe('connector configuration', () => {
  it('takes application credentials from the environment over mktdata.config, and endpoints from a fake marketplace URL', async () => {
    const { home, wh } = await makeHome();
    await wh.close();
    const file = join(home.root, 'mktdata.config');
    writeFileSync(
      file,
      JSON.stringify({
        spApi: { clientId: 'file-id', clientSecret: 'file-secret', applicationId: 'amzn1.sp.solution.x' },
      }),
      { mode: 0o600 },
    );
    const config = loadConnectorConfig(home, {
      MKTDATA_SP_API_CLIENT_ID: 'env-id',
      MKTDATA_MARKETPLACE_URL: 'http://127.0.0.1:9/',
    });
    expect(appCredentials(config, 'sp-api')).toEqual({ clientId: 'env-id', clientSecret: 'file-secret' });
    expect(config.endpoints.spApi.EU).toBe('http://127.0.0.1:9/sp/eu');
    expect(config.endpoints).toMatchObject({ lwa: endpointsUnder('http://127.0.0.1:9').lwa });
    expect(() => appCredentials(config, 'ads')).toThrow(/MKTDATA_ADS_CLIENT_ID and MKTDATA_ADS_CLIENT_SECRET/);
    // A config file with a secret that others can read is refused; so is an unknown key.
    chmodSync(file, 0o644);
    expect(() => loadConnectorConfig(home, {})).toThrow(/other users can read it/);
    writeFileSync(file, JSON.stringify({ spApi: { clientid: 'typo' } }));
    expect(() => loadConnectorConfig(home, {})).toThrow(/mktdata.config spApi/);
  });
});
