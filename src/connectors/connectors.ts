import { AdsApiClient } from './ads-api.ts';
import { systemClock, type Clock } from '../time/clock.ts';
import { appCredentials, type ConnectorConfig } from './config.ts';
import type { Api, Credentials } from './credentials.ts';
import { LwaClient } from './lwa.ts';
import { RateLimits } from './rate-limits.ts';
import { SpApiClient } from './sp-api.ts';

/** One request or answer, as the clients report it: never headers, tokens or bodies. */
export type ConnectorLog = (event: Record<string, unknown>) => void;

/**
 * The clients of one process: one LWA client per application (tokens cached and shared), rate-limit buckets per
 * seller and operation shared by every job, and API clients per connection, all on one clock.
 */
export class Connectors {
  readonly limits: RateLimits;
  readonly #lwa = new Map<Api, LwaClient>();

  constructor(
    readonly config: ConnectorConfig,
    readonly clock: Clock = systemClock,
    readonly log?: ConnectorLog,
  ) {
    this.limits = new RateLimits(clock);
  }

  /** The LWA client of the SP-API or Ads API application. */
  lwa(api: Api): LwaClient {
    let client = this.#lwa.get(api);
    if (!client) {
      const { clientId, clientSecret } = appCredentials(this.config, api);
      client = new LwaClient({ tokenUrl: this.config.endpoints.lwa, clientId, clientSecret, clock: this.clock });
      this.#lwa.set(api, client);
    }
    return client;
  }

  /** An SP-API client for a connection, on its region's host; buckets are keyed by its selling partner. */
  sp(credentials: Credentials): SpApiClient {
    return new SpApiClient({
      baseUrl: this.config.endpoints.spApi[credentials.region],
      lwa: this.lwa('sp-api'),
      refreshToken: credentials.refreshToken,
      sellerKey: credentials.sellingPartnerId ?? credentials.connectionId,
      limits: this.limits,
      clock: this.clock,
      log: this.log,
    });
  }

  /** An Ads API client for a connection's advertising profile, on its region's host. */
  ads(credentials: Credentials): AdsApiClient {
    return new AdsApiClient({
      baseUrl: this.config.endpoints.ads[credentials.region],
      lwa: this.lwa('ads'),
      refreshToken: credentials.refreshToken,
      clientId: appCredentials(this.config, 'ads').clientId,
      profileId: credentials.profileId ?? undefined,
      clock: this.clock,
      limits: this.limits,
      log: this.log,
    });
  }
}
