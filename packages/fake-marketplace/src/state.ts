import { randomBytes } from 'node:crypto';
import type { Clock } from './clock.ts';
import type { FakeData } from './data/types.ts';
import type { FakeSeller } from './data/sellers.ts';
import type { RequestLogEntry } from './request-log.ts';
import type { Switches } from './switches.ts';
import type { Throttle } from './throttle.ts';

/** An LWA application registered with the fake (the operator's SP-API or Ads app). */
export interface FakeApp {
  clientId: string;
  clientSecret: string;
  applicationId: string;
  /** Redirect URIs the consent accepts; without, any http(s) URI (development). */
  redirectUris?: string[];
}

export type FakeApi = 'sp-api' | 'ads';

/** A refresh token: a seller's authorization of an application. */
interface Grant {
  sellerId: string;
  api: FakeApi;
  clientId: string;
  revoked: boolean;
}

/** An access token: a seller's (or, grantless, the application's) for an hour. */
interface AccessToken {
  sellerId: string | null;
  api: FakeApi;
  clientId: string;
  expiresAt: number;
}

/** An OAuth authorization code: usable once, within 5 minutes, with the consent's redirect URI. */
interface AuthCode {
  sellerId: string;
  api: FakeApi;
  clientId: string;
  redirectUri: string;
  expiresAt: number;
  used: boolean;
}

/** Everything the fake marketplace holds: sellers, applications, grants and tokens, reports, documents, the log. */
export class FakeState {
  readonly grants = new Map<string, Grant>();
  readonly tokens = new Map<string, AccessToken>();
  readonly codes = new Map<string, AuthCode>();
  readonly log: RequestLogEntry[] = [];
  /** Signs document links (the fake's stand-in for S3's pre-signing). */
  readonly linkKey = randomBytes(32);
  readonly sellers: Map<string, FakeSeller>;

  constructor(
    sellers: FakeSeller[],
    readonly data: FakeData,
    readonly clock: Clock,
    readonly spApp: FakeApp,
    readonly adsApp: FakeApp,
    readonly switches: Switches,
    readonly throttle: Throttle,
    readonly accessTokenSeconds: number,
    private readonly dataAsOf?: number,
  ) {
    this.sellers = new Map(sellers.map((s) => [s.sellerId, s]));
  }

  /** The instant the sellers' data is served as of, for a request at `at`: `at`, unless the data is frozen. */
  dataAt(at: number): number {
    return this.dataAsOf ?? at;
  }

  /** The app of a client id, if registered. */
  app(clientId: string): FakeApp | undefined {
    return [this.spApp, this.adsApp].find((a) => a.clientId === clientId);
  }

  /** A new refresh token for a seller's authorization. */
  grant(sellerId: string, api: FakeApi): string {
    if (!this.sellers.has(sellerId)) throw new Error(`the fake marketplace has no seller ${sellerId}`);
    const token = `Atzr|${randomBytes(32).toString('base64url')}`;
    this.grants.set(token, {
      sellerId,
      api,
      clientId: (api === 'sp-api' ? this.spApp : this.adsApp).clientId,
      revoked: false,
    });
    return token;
  }

  /** A new access token. */
  issueAccessToken(sellerId: string | null, api: FakeApi, clientId: string): { token: string; expiresIn: number } {
    const token = `Atza|${randomBytes(48).toString('base64url')}`;
    this.tokens.set(token, { sellerId, api, clientId, expiresAt: this.clock.now() + this.accessTokenSeconds * 1000 });
    return { token, expiresIn: this.accessTokenSeconds };
  }

  /** A new authorization code (consent given). */
  issueCode(sellerId: string, api: FakeApi, clientId: string, redirectUri: string): string {
    const code = randomBytes(16).toString('base64url');
    this.codes.set(code, {
      sellerId,
      api,
      clientId,
      redirectUri,
      expiresAt: this.clock.now() + 5 * 60_000,
      used: false,
    });
    return code;
  }

  /** Called with each answered request as it is recorded (`FakeMarketplaceOptions.onRequest`). */
  onRecord?: (entry: RequestLogEntry) => void;

  /** Records an answered request. */
  record(entry: RequestLogEntry): void {
    this.log.push(entry);
    this.onRecord?.(entry);
  }
}
