import { createHash } from 'node:crypto';
import { systemClock, type Clock } from '../time/clock.ts';
import { ConnectorError } from './connector-error.ts';
import { fetchOrThrow, withRetries } from './retry.ts';

/** Refresh an access token this long before it expires. */
const MARGIN_MS = 60_000;

interface Token {
  value: string;
  expiresAt: number;
}

/** An LWA token answer (docs/design/live-apis.md §1.1). */
interface TokenAnswer {
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
  error?: string;
  error_description?: string;
}

/**
 * Login with Amazon for one application: access tokens per refresh token, cached and refreshed a minute before they
 * expire (concurrent callers share one refresh), and the OAuth code exchange. Tokens are held in memory only.
 */
export class LwaClient {
  readonly #cache = new Map<string, Token>();
  readonly #pending = new Map<string, Promise<Token>>();
  readonly #clock: Clock;

  constructor(private readonly options: { tokenUrl: string; clientId: string; clientSecret: string; clock?: Clock }) {
    this.#clock = options.clock ?? systemClock;
  }

  /** A valid access token for the refresh token. */
  async accessToken(refreshToken: string): Promise<string> {
    const key = createHash('sha256').update(refreshToken).digest('hex');
    const cached = this.#cache.get(key);
    if (cached && cached.expiresAt - MARGIN_MS > this.#clock.now()) return cached.value;
    let pending = this.#pending.get(key);
    if (!pending) {
      pending = this.#grant({ grant_type: 'refresh_token', refresh_token: refreshToken }).then((answer) => {
        const token = {
          value: answer.access_token!,
          expiresAt: this.#clock.now() + (answer.expires_in ?? 3600) * 1000,
        };
        this.#cache.set(key, token);
        return token;
      });
      this.#pending.set(key, pending);
      pending.finally(() => this.#pending.delete(key)).catch(() => undefined);
    }
    return (await pending).value;
  }

  /** Forgets the cached access token of a refresh token (the API said it expired). */
  invalidate(refreshToken: string): void {
    this.#cache.delete(createHash('sha256').update(refreshToken).digest('hex'));
  }

  /** Exchanges an OAuth authorization code (valid 5 minutes, usable once) for the seller's refresh token. */
  async exchangeCode(code: string, redirectUri: string): Promise<{ refreshToken: string }> {
    const answer = await this.#grant({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
    if (!answer.refresh_token)
      throw new ConnectorError('invalid-grant', 'the token answer has no refresh token', { operation: 'lwa token' });
    return { refreshToken: answer.refresh_token };
  }

  /** One token request, form-encoded as documented; 5xx and network failures retried, OAuth errors classified. */
  #grant(params: Record<string, string>): Promise<TokenAnswer> {
    const body = new URLSearchParams({
      ...params,
      client_id: this.options.clientId,
      client_secret: this.options.clientSecret,
    });
    return withRetries(this.#clock, { maxAttempts: 3 }, async () => {
      const response = await fetchOrThrow(
        this.options.tokenUrl,
        { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' }, body },
        'lwa token',
      );
      const answer = (await response.json().catch(() => ({}))) as TokenAnswer;
      if (response.ok && answer.access_token) return answer;
      const described = `${answer.error ?? `HTTP ${response.status}`}${answer.error_description ? ` (${answer.error_description})` : ''}`;
      const kind =
        answer.error === 'invalid_grant'
          ? 'invalid-grant'
          : answer.error === 'invalid_client' || answer.error === 'unauthorized_client'
            ? 'invalid-client'
            : response.status === 429
              ? 'throttled'
              : response.status >= 500
                ? 'server'
                : 'invalid-input';
      throw new ConnectorError(kind, `Login with Amazon refused the token request: ${described}`, {
        status: response.status,
        code: answer.error ?? null,
        details: answer.error_description ?? null,
        operation: 'lwa token',
      });
    });
  }
}
