import type { ConnectionType } from '../db/control-plane.ts';
import type { ControlStore } from '../db/control-store.ts';
import { credentialStates } from '../connectors/credentials.ts';
import { landingsOf } from './landed-files.ts';

/**
 * How a connection reaches one of the marketplace's account kinds (docs/design/service-clients.md "Sellers and
 * vendors").
 */
export interface AccountLink {
  /**
   * CONNECTED: credentials that work; NEEDS_REAUTHORIZATION: the grant was revoked or expired; FILES: fed by landed
   * reports.
   */
  status: 'CONNECTED' | 'NEEDS_REAUTHORIZATION' | 'FILES';
  connectedAt: string;
  accessLevel: 'READ';
}

export interface AccountLinks {
  accountType: 'SELLER' | 'VENDOR' | 'ADS_ONLY' | 'UNCONNECTED';
  sellerCentralConnection: AccountLink | null;
  vendorCentralConnection: AccountLink | null;
  mktAdsConnection: AccountLink | null;
  mktDspConnection: null;
  /** Rows landed for the connection, every source together. */
  rowCount: number;
}

/**
 * The four connection objects of each connection the clients filter on: the SP-API link is the seller's or the
 * vendor's by the connection's type, the Ads API link its own; landed files stand for the link of the connection's
 * type. No DSP connector exists. A connection with none of them is UNCONNECTED, one with only ads ADS_ONLY.
 */
export async function accountLinks(
  wh: ControlStore,
  connections: { id: string; type: ConnectionType }[],
): Promise<Map<string, AccountLinks>> {
  const ids = connections.length > 0 ? connections.map((c) => c.id) : [''];
  const credentials = await credentialStates(wh.db, ids);
  const landed = await landingsOf(wh.db, ids);
  const iso = (at: unknown) => new Date(String(at)).toISOString();
  return new Map(
    connections.map((c) => {
      const link = (api: 'sp-api' | 'ads'): AccountLink | null => {
        const credential = credentials.find((k) => k.connection_id === c.id && k.api === api);
        if (!credential) return null;
        return {
          status: credential.status === 'active' ? 'CONNECTED' : 'NEEDS_REAUTHORIZATION',
          connectedAt: iso(credential.created_at),
          accessLevel: 'READ',
        };
      };
      const files = landed.find((l) => l.connection_id === c.id);
      const fed: AccountLink | null = files
        ? { status: 'FILES', connectedAt: iso(files.first), accessLevel: 'READ' }
        : null;
      const sp = link('sp-api') ?? (c.type === 'MKT_ADS' ? null : fed);
      const ads = link('ads') ?? (c.type === 'MKT_ADS' ? fed : null);
      const seller = c.type === 'SELLER_CENTRAL' ? sp : null;
      const vendor = c.type === 'VENDOR_CENTRAL' ? sp : null;
      const accountType = seller ? 'SELLER' : vendor ? 'VENDOR' : ads ? 'ADS_ONLY' : 'UNCONNECTED';
      return [
        c.id,
        {
          accountType,
          sellerCentralConnection: seller,
          vendorCentralConnection: vendor,
          mktAdsConnection: ads,
          mktDspConnection: null,
          rowCount: Number(files?.rows ?? 0),
        },
      ];
    }),
  );
}
