import { systemClock, type Clock } from '../time/clock.ts';
import { ConnectorError, type ConnectorErrorKind } from './connector-error.ts';
import type { LwaClient } from './lwa.ts';
import { RateLimits } from './rate-limits.ts';
import { AttemptError, fetchOrThrow, withRetries } from './retry.ts';
import { safeJson, type ApiLog } from './sp-api.ts';
import { adsPlan } from './usage-plans.ts';

/** An advertising profile (GET /v2/profiles). */
export interface AdsProfile {
  profileId: number | string;
  countryCode?: string;
  currencyCode?: string;
  timezone?: string;
  accountInfo?: { marketplaceStringId?: string; id?: string; type?: string; name?: string };
}

/** An Ads API v3 report's state. */
export interface AdsReport {
  reportId: string;
  status: 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED';
  startDate?: string;
  endDate?: string;
  configuration?: Record<string, unknown>;
  createdAt?: string;
  url?: string | null;
  urlExpiresAt?: string | null;
  generatedAt?: string | null;
  failureReason?: string | null;
}

const createType = 'application/vnd.createasyncreportrequest.v3+json';
type AdsMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

const kindOf = (status: number): ConnectorErrorKind =>
  status === 429
    ? 'throttled'
    : status >= 500
      ? 'server'
      : status === 401 || status === 403
        ? 'access-denied'
        : status === 404
          ? 'not-found'
          : status === 425
            ? 'duplicate'
            : 'invalid-input';

/** Whether an earlier report answers the same request (Airbyte's check before reusing a duplicate). */
function sameRequest(
  report: AdsReport,
  body: { startDate: string; endDate: string; configuration: Record<string, unknown> },
): boolean {
  const pick = (c: Record<string, unknown> | undefined) =>
    JSON.stringify(
      ['reportTypeId', 'adProduct', 'timeUnit', 'groupBy', 'columns', 'filters'].map((k) => c?.[k] ?? null),
    );
  return (
    report.startDate === body.startDate &&
    report.endDate === body.endDate &&
    pick(report.configuration) === pick(body.configuration)
  );
}

/**
 * A thin Ads API v3 client for one advertiser: the LWA token, ClientId and profile Scope headers, a polite bucket per
 * profile (no published numbers), Retry-After on 429, and the duplicate-request answer (425) reused, not fought.
 */
export class AdsApiClient {
  readonly #clock: Clock;
  readonly #limits: RateLimits;

  constructor(
    private readonly o: {
      baseUrl: string;
      lwa: LwaClient;
      refreshToken: string;
      clientId: string;
      profileId?: string;
      clock?: Clock;
      limits?: RateLimits;
      log?: ApiLog;
    },
  ) {
    this.#clock = o.clock ?? systemClock;
    this.#limits = o.limits ?? new RateLimits(this.#clock);
  }

  async #request<T>(
    operation: string,
    method: AdsMethod,
    path: string,
    body?: unknown,
    scoped = true,
    media?: { contentType?: string; accept?: string },
  ): Promise<T> {
    const bucket = this.#limits.bucket(`ads:${this.o.profileId ?? this.o.clientId}`, 'ads', adsPlan);
    let refreshed = false;
    return withRetries(this.#clock, { throttledMs: () => 1000 / bucket.rate }, async (attempt) => {
      for (;;) {
        // The access token first (a token request can take a while), then the bucket's token right before sending:
        // the server stamps the request on arrival, and a delay between the two would look like a burst to it.
        await this.o.lwa.accessToken(this.o.refreshToken);
        const waiting = this.#clock.now();
        await bucket.take();
        const waitedMs = this.#clock.now() - waiting;
        const token = await this.o.lwa.accessToken(this.o.refreshToken);
        const headers: Record<string, string> = {
          authorization: `Bearer ${token}`,
          'amazon-advertising-api-clientid': this.o.clientId,
          accept: media?.accept ?? 'application/json',
        };
        if (scoped && this.o.profileId) headers['amazon-advertising-api-scope'] = this.o.profileId;
        if (body !== undefined) headers['content-type'] = media?.contentType ?? createType;
        bucket.settle();
        const started = this.#clock.now();
        const response = await fetchOrThrow(
          `${this.o.baseUrl.replace(/\/+$/, '')}${path}`,
          { method, headers, body: body === undefined ? undefined : JSON.stringify(body) },
          operation,
          this.#clock,
        );
        this.o.log?.({
          api: 'ads',
          operation,
          status: response.status,
          ms: this.#clock.now() - started,
          waitedMs,
          attempt,
          requestId: response.headers.get('x-amz-request-id'),
        });
        const text = await response.text();
        const answer = safeJson(text) as Record<string, unknown> | undefined;
        if (response.ok && answer !== undefined) return answer as T;
        if (response.ok && text.trim() === '') return {} as T; // a DELETE may answer 200 or 204 without a body
        if (response.status === 401 && !refreshed) {
          refreshed = true;
          this.o.lwa.invalidate(this.o.refreshToken);
          continue;
        }
        const detail = String(answer?.detail ?? answer?.details ?? answer?.message ?? '');
        const retryAfter = Number(response.headers.get('retry-after'));
        throw new AttemptError(
          new ConnectorError(kindOf(response.status), `${response.status} ${detail}`.trim(), {
            status: response.status,
            code: String(answer?.code ?? ''),
            details: detail,
            operation,
          }),
          retryAfter > 0 ? retryAfter * 1000 : null,
        );
      }
    });
  }

  /**
   * Calls a campaign management operation of the profile (Ads API v3 and the others: their vendor media types as
   * `contentType` and `accept`); the answer's JSON (a 207 multi-status too), or a ConnectorError.
   */
  call<T>(
    operation: string,
    request: { method: AdsMethod; path: string; body?: unknown; contentType?: string; accept?: string },
  ): Promise<T> {
    return this.#request<T>(operation, request.method, request.path, request.body, true, {
      contentType: request.contentType ?? 'application/json',
      accept: request.accept,
    });
  }

  /** The advertiser's profiles on this region's host (no Scope header). */
  listProfiles(): Promise<AdsProfile[]> {
    return this.#request<AdsProfile[]>('listProfiles', 'GET', '/v2/profiles', undefined, false);
  }

  /** The DSP advertisers the profile may report on. */
  async listDspAdvertisers(): Promise<{ advertiserId: string; name?: string }[]> {
    const answer = await this.#request<{ response?: { advertiserId: string; name?: string }[] }>(
      'listDspAdvertisers',
      'GET',
      '/dsp/advertisers',
    );
    return answer.response ?? [];
  }

  /** A report's state. */
  getReport(reportId: string): Promise<AdsReport> {
    return this.#request<AdsReport>('getReport', 'GET', `/reporting/reports/${encodeURIComponent(reportId)}`);
  }

  /** Creates a report; an identical one still generating (425) is reused once its request is checked to be the same. */
  async createReport(body: {
    name?: string;
    startDate: string;
    endDate: string;
    configuration: Record<string, unknown>;
  }): Promise<{ reportId: string; reused: boolean }> {
    try {
      return {
        reportId: (await this.#request<AdsReport>('createReport', 'POST', '/reporting/reports', body)).reportId,
        reused: false,
      };
    } catch (error) {
      const id =
        error instanceof ConnectorError && error.kind === 'duplicate'
          ? /duplicate of\s*:\s*([\w-]+)/i.exec(error.details ?? '')?.[1]
          : undefined;
      if (!id) throw error;
      const earlier = await this.getReport(id);
      if (!sameRequest(earlier, body))
        throw new ConnectorError(
          'invalid-input',
          `the Ads API calls this request a duplicate of ${id}, which asks for something else`,
          { status: 425, operation: 'createReport' },
        );
      return { reportId: id, reused: true };
    }
  }
}
