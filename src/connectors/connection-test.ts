import type { Warehouse } from '../db/warehouse.ts';
import { loadMarketplaces } from '../control/marketplaces.ts';
import { MktdataError } from '../errors.ts';
import { regions, type Region } from './config.ts';
import { ConnectorError } from './connector-error.ts';
import type { Connectors } from './connectors.ts';
import {
  credentialApis,
  markNeedsReauthorization,
  requireCredentials,
  type Api,
  type Credentials,
} from './credentials.ts';

interface Participation {
  marketplace?: { id?: string; name?: string };
  participation?: { isParticipating?: boolean };
}

const marketplaceName = (id: string) => loadMarketplaces().get(id)?.countryName ?? id;

/**
 * The marketplaces a seller's refresh token reaches on one region's host (getMarketplaceParticipations: one cheap
 * call).
 */
async function participations(connectors: Connectors, credentials: Credentials, region: Region): Promise<string[]> {
  const { body } = await connectors
    .sp({ ...credentials, region })
    .request<{ payload?: Participation[] }>('getMarketplaceParticipations', {
      method: 'GET',
      path: '/sellers/v1/marketplaceParticipations',
    });
  return (body.payload ?? [])
    .filter((p) => p.participation?.isParticipating !== false)
    .map((p) => p.marketplace?.id ?? '')
    .filter(Boolean);
}

/**
 * Says plainly what an API error means for this connection: expired grant, wrong application secret, missing role,
 * wrong region.
 */
async function explain(
  connectors: Connectors,
  credentials: Credentials,
  error: unknown,
  probe: (region: Region) => Promise<string[]>,
): Promise<string> {
  if (!(error instanceof ConnectorError)) throw error;
  if (error.kind === 'invalid-grant')
    return "the refresh token was revoked or has expired (a seller's authorization lapses after 12 months): reconnect the account through an invitation link or `mktdata connections credentials`";
  if (error.kind === 'invalid-client')
    return `the marketplace refused the application's client id or secret: check them (${connectors.config.file} or the MKTDATA_*_CLIENT_* variables)`;
  if (error.kind === 'access-denied') {
    for (const region of regions.filter((r) => r !== credentials.region)) {
      const reached = await probe(region).catch(() => []);
      if (reached.length > 0)
        return `wrong region: this refresh token belongs to an account in the ${region} region (${reached.map(marketplaceName).join(', ')}), but ${marketplaceName(credentials.marketplaceId)} is in ${credentials.region}`;
    }
    return 'access denied: the application lacks a role this call needs, or the account did not grant it';
  }
  if (error.kind === 'network') return `cannot reach the marketplace: ${error.message}`;
  return error.message;
}

/**
 * Checks one API of a connection with one cheap authenticated call; returns what it found or throws saying what is
 * wrong.
 */
async function testApi(wh: Warehouse, connectors: Connectors, connectionId: string, api: Api): Promise<string> {
  const credentials = await requireCredentials(wh, connectionId, api);
  const name = api === 'sp-api' ? 'SP-API' : 'Ads API';
  const fail = (reason: string) =>
    new MktdataError('ERR_CONNECTION_TEST_FAILED', { api: name, id: connectionId, reason });
  try {
    if (api === 'sp-api') {
      const reached = await participations(connectors, credentials, credentials.region);
      if (!reached.includes(credentials.marketplaceId))
        throw fail(
          `the seller does not sell in ${marketplaceName(credentials.marketplaceId)}; it sells in ${reached.map(marketplaceName).join(', ') || 'no marketplace of this region'}`,
        );
      return `${name}: ok, the seller sells in ${reached.map(marketplaceName).join(', ')}`;
    }
    const profiles = await connectors.ads(credentials).listProfiles();
    const profile = profiles.find((p) => String(p.profileId) === credentials.profileId);
    if (!profile)
      throw fail(
        `profile ${credentials.profileId} is not among this advertiser's ${credentials.region} profiles (${profiles.map((p) => p.profileId).join(', ') || 'none'})`,
      );
    return `${name}: ok, profile ${credentials.profileId} (${profile.accountInfo?.name ?? profile.countryCode}) in ${marketplaceName(credentials.marketplaceId)}`;
  } catch (error) {
    if (error instanceof MktdataError) throw error;
    const reason = await explain(connectors, credentials, error, (region) =>
      participations(connectors, credentials, region),
    );
    if (error instanceof ConnectorError && error.kind === 'invalid-grant')
      await markNeedsReauthorization(wh, connectionId, api, reason);
    throw fail(reason);
  }
}

/** `mktdata connections test`: each API the connection holds credentials for (or the one asked), checked. */
export async function testConnection(
  wh: Warehouse,
  connectors: Connectors,
  connectionId: string,
  api?: Api,
): Promise<string[]> {
  const apis = api ? [api] : (await credentialApis(wh.db, connectionId)).sort();
  if (apis.length === 0)
    throw new MktdataError('ERR_CREDENTIALS_MISSING', { id: connectionId, api: 'SP-API or Ads API' });
  const lines: string[] = [];
  for (const one of apis) lines.push(await testApi(wh, connectors, connectionId, one));
  return lines;
}
