import type { ConnectorConfig } from '../connectors/config.ts';
import type { Api } from '../connectors/credentials.ts';
import type { Clock } from '../time/clock.ts';
import { apiName, fail, ok, skipped, type CheckResult } from './check.ts';

/** When Login with Amazon answered, by its Date header, and this machine's clock around the request. */
export interface DatedAnswer {
  /** The answer's Date header (whole seconds), epoch ms. */
  date: number;
  sentAt: number;
  receivedAt: number;
}

/** What the application check found: its line, and when LWA answered (for the clock check). */
export interface ApplicationFindings {
  result: CheckResult;
  answer: DatedAnswer | null;
}

// A refresh token no one was ever issued: LWA authenticates the client before it looks at the grant (RFC 6749 §5.2),
// so its answer says whether the application's id and secret are right, with no seller's grant involved and no token
// issued.
const probeToken = 'Atzr|mktdata-doctor-probe-never-issued';

/**
 * The SP-API or Ads API application's LWA credentials, with one token request that carries a grant that cannot be
 * valid: `invalid_grant` means LWA accepted the client, `invalid_client` that the id or secret is wrong. Needed only
 * when the application is configured or a connection holds credentials for it.
 */
export async function applicationCheck(
  config: ConnectorConfig,
  api: Api,
  needed: boolean,
  clock: Clock,
): Promise<ApplicationFindings> {
  const name = `${apiName(api)} application`;
  const app = api === 'sp-api' ? config.spApi : config.ads;
  const prefix = api === 'sp-api' ? 'MKTDATA_SP_API' : 'MKTDATA_ADS';
  const where = `${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET, or ${api === 'sp-api' ? 'spApi' : 'ads'}.clientId and .clientSecret in ${config.file}`;
  if (!app.clientId || !app.clientSecret) {
    if (!needed) return { result: skipped(name, `not configured (${where}); no connection needs it`), answer: null };
    return {
      result: fail(name, 'not configured, but connections hold credentials for it', `set ${where}`),
      answer: null,
    };
  }
  const sentAt = clock.now();
  let response: Response;
  try {
    response = await fetch(config.endpoints.lwa, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: probeToken,
        client_id: app.clientId,
        client_secret: app.clientSecret,
      }),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    const why = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
    return {
      result: fail(
        name,
        `cannot reach Login with Amazon at ${config.endpoints.lwa}: ${why}`,
        'check the network, proxy and firewall (and MKTDATA_MARKETPLACE_URL if set)',
      ),
      answer: null,
    };
  }
  const receivedAt = clock.now();
  const body = (await response.json().catch(() => ({}))) as { error?: string };
  const date = Date.parse(response.headers.get('date') ?? '');
  const answer = Number.isNaN(date) ? null : { date, sentAt, receivedAt };
  if (body.error === 'invalid_grant' || response.ok)
    return { result: ok(name, `Login with Amazon accepts its client id and secret`), answer };
  if (body.error === 'invalid_client' || body.error === 'unauthorized_client')
    return {
      result: fail(name, `Login with Amazon refused its client id or secret (${body.error})`, `correct ${where}`),
      answer,
    };
  return {
    result: fail(
      name,
      `Login with Amazon answered HTTP ${response.status}${body.error ? ` (${body.error})` : ''}`,
      'try again later; if it persists, check the application in Seller Central / the Amazon Ads console',
    ),
    answer,
  };
}
