import type { Warehouse } from '../../db/warehouse.ts';
import { connectionsByName, requireConnection } from '../../control/connections/connections.ts';
import { initialLoadStages } from '../../pipelines/load-stages.ts';
import { credentialStates, removeCredentials, setCredentials, type Api } from '../../connectors/credentials.ts';
import { testConnection } from '../../connectors/connection-test.ts';
import { loadConnectorConfig } from '../../connectors/config.ts';
import { Connectors } from '../../connectors/connectors.ts';
import { connectorClock } from '../../pipelines/fetch/live.ts';
import { MktdataError } from '../../errors.ts';
import { printRows } from '../output.ts';
import { readSecret } from '../read-secret.ts';
import { served } from '../served.ts';

/** Options of `mktdata connections credentials`. */
export interface CredentialsOptions {
  connection: string;
  api: Api;
  sellingPartnerId?: string;
  profileId?: string;
  remove?: boolean;
}

/**
 * The refresh token of `connections credentials` (MKTDATA_REFRESH_TOKEN or standard input), checked, kept in `secrets`.
 */
export async function readRefreshToken(o: CredentialsOptions, secrets: Record<string, string>): Promise<string> {
  if (o.api === 'ads' && !o.profileId) {
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: '--profile-id',
      reason:
        "Ads API credentials need the advertising profile of the connection's marketplace (GET /v2/profiles lists them)",
    });
  }
  if (o.api === 'sp-api' && o.profileId)
    throw new MktdataError('ERR_INPUT_INVALID', { where: '--profile-id', reason: 'only for --api ads' });
  const refreshToken = await readSecret('MKTDATA_REFRESH_TOKEN', `${o.api} refresh token`);
  if (!/^Atzr\|/.test(refreshToken)) {
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: 'refresh token',
      reason: 'a Login with Amazon refresh token starts with "Atzr|"',
    });
  }
  secrets.MKTDATA_REFRESH_TOKEN = refreshToken;
  return refreshToken;
}

/**
 * `mktdata connections credentials`: stores a connection's refresh token (read by `readRefreshToken`, never from the
 * command line), encrypted, with its selling partner id or advertising profile; or removes them. Beside a running
 * server the connection's first load starts at once; otherwise at the next run.
 */
export async function credentials(wh: Warehouse, o: CredentialsOptions, refreshToken: string | null): Promise<void> {
  await requireConnection(wh, o.connection);
  if (o.remove || refreshToken === null) {
    const removed = await removeCredentials(wh, o.connection, o.api);
    console.log(
      removed
        ? `removed the ${o.api} credentials of ${o.connection}; it is fed by dropped files only`
        : `${o.connection} had no ${o.api} credentials`,
    );
    return;
  }
  const stored = await setCredentials(wh, o.connection, {
    api: o.api,
    refreshToken,
    sellingPartnerId: o.sellingPartnerId ?? null,
    profileId: o.profileId ?? null,
  });
  console.log(
    `stored the ${o.api} credentials of ${o.connection} (encrypted); check them with \`mktdata connections test --connection ${o.connection}\``,
  );
  const serving = served();
  serving?.queueRuns('connected');
  const what = stored === 'new' ? 'its first load' : 'what it could not fetch before';
  console.log(
    serving
      ? `${what} has started in the running server: \`mktdata runs\` follows it`
      : `${what} runs at the next \`mktdata run\` (at once when \`mktdata serve\` is running)`,
  );
}

/**
 * `mktdata connections list`: every connection with its load stage and the state of its credentials (never the
 * secrets).
 */
export async function listConnections(wh: Warehouse, format: 'table' | 'json'): Promise<void> {
  const connections = await connectionsByName(wh.db);
  const stored = await credentialStates(wh.db);
  const state = (id: string, api: Api) => {
    const row = stored.find((s) => s.connection_id === id && s.api === api);
    return row ? (row.status === 'active' ? 'active' : `needs re-authorization: ${row.status_reason ?? ''}`) : 'none';
  };
  const stageOf = await initialLoadStages(wh, wh.home);
  const rows = connections.map((c) => [
    c.id,
    c.name,
    c.type,
    c.marketplace_id,
    c.seller_id,
    stageOf(c.id),
    state(c.id, 'sp-api'),
    state(c.id, 'ads'),
  ]);
  const columns = ['id', 'name', 'type', 'marketplace', 'seller_id', 'load_stage', 'sp_api', 'ads'];
  printRows(format, columns, rows);
}

/** `mktdata connections test`: one cheap authenticated call per API; says plainly what is wrong. */
export async function testConnectionCommand(wh: Warehouse, o: { connection: string; api?: Api }): Promise<void> {
  await requireConnection(wh, o.connection);
  const connectors = new Connectors(loadConnectorConfig(wh.home), connectorClock());
  for (const line of await testConnection(wh, connectors, o.connection, o.api)) console.log(line);
}
