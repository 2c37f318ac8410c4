import type { Kysely } from 'kysely';
import type { ControlPlane } from '../db/control-plane.ts';
import type { Warehouse } from '../db/warehouse.ts';
import { requireConnection, setSellerIdIfMissing } from '../control/connections/connections.ts';
import { setLoadStage } from '../control/connections/load-stages.ts';
import { loadMarketplaces } from '../control/marketplaces.ts';
import { MktdataError } from '../errors.ts';
import type { Region } from './config.ts';
import { decryptSecret, encryptSecret, secretKey } from '../lib/secrets.ts';

export type Api = 'sp-api' | 'ads';

/** What a connection needs to call one API; the refresh token is decrypted only here, in memory. */
export interface Credentials {
  api: Api;
  connectionId: string;
  marketplaceId: string;
  region: Region;
  refreshToken: string;
  sellingPartnerId: string | null;
  profileId: string | null;
  status: 'active' | 'needs_reauthorization';
  /** Why the marketplace refused them, when it did. */
  statusReason: string | null;
}

/** What `setCredentials` stores for an API. */
export interface NewCredentials {
  api: Api;
  refreshToken: string;
  sellingPartnerId?: string | null;
  profileId?: string | null;
}

const context = (connectionId: string, api: Api) => `${connectionId}/${api}`;

/** The API region of a connection's marketplace. */
export function connectionRegion(marketplaceId: string): Region {
  const marketplace = loadMarketplaces().get(marketplaceId);
  if (!marketplace) throw new MktdataError('ERR_MARKETPLACE_UNKNOWN', { id: marketplaceId });
  return marketplace.region;
}

/**
 * Stores (or replaces) a connection's credentials for one API, the refresh token encrypted; they start active.
 * Replaced credentials (a seller who connected again) keep the time they were first stored. New ones begin the
 * fetching of the tables fed by that API: their history from dropped files no longer counts (run-history.ts
 * `fetchedSince`), and the connection is in its first load again. Returns whether they are new.
 */
export async function setCredentials(
  wh: Warehouse,
  connectionId: string,
  input: NewCredentials,
  now = new Date(),
): Promise<'new' | 'replaced'> {
  await requireConnection(wh, connectionId);
  const at = now.toISOString();
  const existing = await wh.db
    .selectFrom('control.connection_credentials')
    .select('created_at')
    .where('connection_id', '=', connectionId)
    .where('api', '=', input.api)
    .executeTakeFirst();
  const row = {
    connection_id: connectionId,
    api: input.api,
    selling_partner_id: input.sellingPartnerId ?? null,
    profile_id: input.profileId ?? null,
    refresh_token_encrypted: encryptSecret(secretKey(wh.home), input.refreshToken, context(connectionId, input.api)),
    status: 'active' as const,
    status_reason: null,
    created_at: existing ? new Date(String(existing.created_at)).toISOString() : at,
    updated_at: at,
  };
  await wh.db
    .deleteFrom('control.connection_credentials')
    .where('connection_id', '=', connectionId)
    .where('api', '=', input.api)
    .execute();
  await wh.db.insertInto('control.connection_credentials').values(row).execute();
  if (input.api === 'sp-api' && input.sellingPartnerId) {
    await setSellerIdIfMissing(wh.db, connectionId, input.sellingPartnerId);
  }
  if (!existing) await setLoadStage(wh.db, connectionId, 'FIRST_STAGE');
  return existing ? 'replaced' : 'new';
}

/** Removes a connection's credentials for one API; it goes back to dropped files only. */
export async function removeCredentials(wh: Warehouse, connectionId: string, api: Api): Promise<boolean> {
  const result = await wh.db
    .deleteFrom('control.connection_credentials')
    .where('connection_id', '=', connectionId)
    .where('api', '=', api)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Every stored credential, decrypted, by connection; connections without any are absent. */
export async function readAllCredentials(wh: Warehouse): Promise<Map<string, Partial<Record<Api, Credentials>>>> {
  const rows = await wh.db
    .selectFrom('control.connection_credentials as c')
    .innerJoin('control.connections as k', 'k.id', 'c.connection_id')
    .select([
      'c.connection_id',
      'c.api',
      'c.selling_partner_id',
      'c.profile_id',
      'c.refresh_token_encrypted',
      'c.status',
      'c.status_reason',
      'k.marketplace_id',
    ])
    .execute();
  const byConnection = new Map<string, Partial<Record<Api, Credentials>>>();
  if (rows.length === 0) return byConnection;
  const key = secretKey(wh.home);
  for (const row of rows) {
    const entry = byConnection.get(row.connection_id) ?? {};
    entry[row.api] = {
      api: row.api,
      connectionId: row.connection_id,
      marketplaceId: row.marketplace_id,
      region: connectionRegion(row.marketplace_id),
      refreshToken: decryptSecret(key, row.refresh_token_encrypted, context(row.connection_id, row.api)),
      sellingPartnerId: row.selling_partner_id,
      profileId: row.profile_id,
      status: row.status,
      statusReason: row.status_reason,
    };
    byConnection.set(row.connection_id, entry);
  }
  return byConnection;
}

/** A connection's credentials for one API, or ERR_CREDENTIALS_MISSING. */
export async function requireCredentials(wh: Warehouse, connectionId: string, api: Api): Promise<Credentials> {
  await requireConnection(wh, connectionId);
  const found = (await readAllCredentials(wh)).get(connectionId)?.[api];
  if (!found)
    throw new MktdataError('ERR_CREDENTIALS_MISSING', {
      id: connectionId,
      api: api === 'sp-api' ? 'SP-API' : 'Ads API',
    });
  return found;
}

/** Marks credentials the marketplace refused (`invalid_grant`): their fetches stop until the seller reconnects. */
export async function markNeedsReauthorization(
  wh: Warehouse,
  connectionId: string,
  api: Api,
  reason: string,
): Promise<void> {
  await wh.db
    .updateTable('control.connection_credentials')
    .set({ status: 'needs_reauthorization', status_reason: reason, updated_at: new Date().toISOString() })
    .where('connection_id', '=', connectionId)
    .where('api', '=', api)
    .execute();
}

// Every query on control.connection_credentials is in this file (test/db/control-table-modules.test.ts).

/**
 * The state of the credentials of these connections (of every connection when `connectionIds` is undefined): which
 * APIs, whether active, since and until when; never the secrets.
 */
export function credentialStates(db: Kysely<ControlPlane>, connectionIds?: string[]) {
  let query = db
    .selectFrom('control.connection_credentials')
    .select(['connection_id', 'api', 'status', 'status_reason', 'created_at', 'updated_at']);
  if (connectionIds) query = query.where('connection_id', 'in', connectionIds);
  return query.execute();
}

/** The APIs a connection holds credentials for. */
export async function credentialApis(db: Kysely<ControlPlane>, connectionId: string): Promise<Api[]> {
  const stored = await db
    .selectFrom('control.connection_credentials')
    .select('api')
    .where('connection_id', '=', connectionId)
    .execute();
  return stored.map((s) => s.api);
}

/** Whether any connection holds credentials. */
export async function anyCredentials(db: Kysely<ControlPlane>): Promise<boolean> {
  const stored = await db.selectFrom('control.connection_credentials').select('connection_id').limit(1).execute();
  return stored.length > 0;
}
