import { createHash, randomBytes } from 'node:crypto';
import type { Warehouse } from '../db/warehouse.ts';
import { loadMarketplaces } from '../control/marketplaces.ts';
import type { ConnectorConfig } from './config.ts';
import type { Api } from './credentials.ts';

/** How long a consent may take: the marketplace's code itself lives 5 minutes once issued. */
const STATE_MINUTES = 15;

const hash = (state: string) => createHash('sha256').update(state).digest('hex');

/** What a one-time OAuth state carries from the start of a consent to its callback. */
export interface OAuthState {
  invitationId: string;
  api: Api;
  connectionId: string | null;
  marketplaceId: string | null;
  connectionName: string | null;
}

/** A new one-time `state` for a consent (stored hashed; the value itself only travels in the URLs). */
export async function createState(wh: Warehouse, state: OAuthState, now = new Date()): Promise<string> {
  const value = randomBytes(24).toString('base64url');
  await wh.db
    .insertInto('control.oauth_states')
    .values({
      state_hash: hash(value),
      invitation_id: state.invitationId,
      api: state.api,
      connection_id: state.connectionId,
      marketplace_id: state.marketplaceId,
      connection_name: state.connectionName,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + STATE_MINUTES * 60_000).toISOString(),
      used_at: null,
    })
    .execute();
  return value;
}

/**
 * The state of a callback if it is known, of this API, unused and unexpired; null otherwise (a forged or replayed
 * callback).
 */
export async function findState(wh: Warehouse, value: string, api: Api, now = new Date()): Promise<OAuthState | null> {
  const row = await wh.db
    .selectFrom('control.oauth_states')
    .selectAll()
    .where('state_hash', '=', hash(value))
    .where('api', '=', api)
    .executeTakeFirst();
  if (!row || row.used_at || Date.parse(String(row.expires_at)) <= now.getTime()) return null;
  return {
    invitationId: row.invitation_id,
    api: row.api,
    connectionId: row.connection_id,
    marketplaceId: row.marketplace_id,
    connectionName: row.connection_name,
  };
}

/** Marks a state used: a callback can complete once. */
export async function useState(wh: Warehouse, value: string, now = new Date()): Promise<void> {
  await wh.db
    .updateTable('control.oauth_states')
    .set({ used_at: now.toISOString() })
    .where('state_hash', '=', hash(value))
    .execute();
}

/**
 * Seller Central's (or Vendor Central's) consent page for the application (docs/design/live-apis.md §1.3, website
 * workflow).
 */
export function sellerConsentUrl(
  config: ConnectorConfig,
  marketplaceId: string,
  vendor: boolean,
  state: string,
  redirectUri: string,
): string {
  const domain = loadMarketplaces().get(marketplaceId)!.domain;
  const base = config.endpoints.sellerCentralConsent(domain);
  const url = new URL(vendor ? base.replace('sellercentral.', 'vendorcentral.') : base);
  url.searchParams.set('application_id', config.spApi.applicationId ?? '');
  url.searchParams.set('state', state);
  url.searchParams.set('redirect_uri', redirectUri);
  if (config.spApi.draftApp) url.searchParams.set('version', 'beta');
  return url.toString();
}

/**
 * The Ads API's consent page of the marketplace's region (Login with Amazon, scope advertising::campaign_management).
 */
export function adsConsentUrl(
  config: ConnectorConfig,
  marketplaceId: string,
  clientId: string,
  state: string,
  redirectUri: string,
): string {
  const region = loadMarketplaces().get(marketplaceId)!.region;
  const url = new URL(config.endpoints.adsConsent[region]);
  url.searchParams.set('client_id', clientId);
  url.searchParams.set('scope', 'advertising::campaign_management');
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('state', state);
  return url.toString();
}
