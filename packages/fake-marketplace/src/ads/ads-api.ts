import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FakeSeller } from '../data/sellers.ts';
import type { FakeState } from '../state.ts';
import { addDays, localDate } from '../dates.ts';
import { adsReportTypes, type AdsBody, type AdsReportStore } from './ads-reports.ts';
import { AdsError, type AdsRoute } from './ads-routes.ts';

const regions: Record<string, 'NA' | 'EU' | 'FE'> = { na: 'NA', eu: 'EU', fe: 'FE' };

/** The profile of an advertiser as GET /v2/profiles lists it. */
export const profileOf = (s: FakeSeller) => ({
  profileId: s.ads!.profileId,
  countryCode: s.countryCode,
  currencyCode: s.currency,
  dailyBudget: 999999999,
  timezone: s.timezone,
  accountInfo: {
    marketplaceStringId: s.marketplaceId,
    id: s.ads!.entityId,
    type: 'seller',
    name: s.name,
    validPaymentMethod: true,
  },
});

/** The configuration rules of §4: type, ad product, grouping, time unit and its columns, range and retention. */
function validate(body: AdsBody | undefined, seller: FakeSeller, at: number): AdsBody {
  const c = body?.configuration;
  const type = c ? adsReportTypes[c.reportTypeId] : undefined;
  if (!body || !c || !type) throw new AdsError(400, `Invalid reportTypeId ${c?.reportTypeId ?? ''}`);
  if (c.adProduct !== type.adProduct)
    throw new AdsError(400, `adProduct ${c.adProduct} does not match reportTypeId ${c.reportTypeId}`);
  if (!Array.isArray(c.groupBy) || c.groupBy.length === 0 || c.groupBy.some((g) => !type.groupBy.includes(g)))
    throw new AdsError(400, `Invalid groupBy for ${c.reportTypeId}: allowed ${type.groupBy.join(', ')}`);
  if (!Array.isArray(c.columns) || c.columns.length === 0) throw new AdsError(400, 'columns are required');
  if (c.timeUnit === 'DAILY' && !c.columns.includes('date'))
    throw new AdsError(400, 'A DAILY report must include the date column');
  if (c.timeUnit === 'SUMMARY' && c.columns.includes('date'))
    throw new AdsError(400, 'A SUMMARY report cannot include the date column');
  if (c.timeUnit !== 'DAILY' && c.timeUnit !== 'SUMMARY') throw new AdsError(400, 'timeUnit must be DAILY or SUMMARY');
  if (c.format !== 'GZIP_JSON') throw new AdsError(400, 'format must be GZIP_JSON');
  if (
    !/^\d{4}-\d{2}-\d{2}$/.test(body.startDate ?? '') ||
    !/^\d{4}-\d{2}-\d{2}$/.test(body.endDate ?? '') ||
    body.startDate > body.endDate
  )
    throw new AdsError(400, 'startDate and endDate must be YYYY-MM-DD, startDate first');
  const days = (Date.parse(body.endDate) - Date.parse(body.startDate)) / 86_400_000 + 1;
  if (days > type.maxDays)
    throw new AdsError(400, `The date range of ${c.reportTypeId} cannot exceed ${type.maxDays} days`);
  const today = localDate(at, seller.timezone);
  if (body.startDate < addDays(today, 1 - type.retentionDays))
    throw new AdsError(
      400,
      `startDate cannot be more than ${type.retentionDays} days in the past for ${c.reportTypeId}`,
    );
  if (
    c.adProduct === 'DEMAND_SIDE_PLATFORM' &&
    !c.filters?.some((f) => f.field === 'advertiserId' && f.values.length > 0 && f.values.length <= 100)
  )
    throw new AdsError(400, 'DSP reports need an advertiserId filter (1 to 100 values)');
  return body;
}

/**
 * Ads API v3 under `/ads/{na|eu|fe}`: the bearer token of the Ads app, its ClientId, a profile Scope of this
 * region's host (not for GET /v2/profiles), a regional limit answered 429 with Retry-After, and reporting.
 */
export function adsApiRoutes(
  app: FastifyInstance,
  state: FakeState,
  store: AdsReportStore,
  base: () => string,
  limit: { rate: number; burst: number },
  routes: AdsRoute[] = [],
): void {
  const bucket = new Map<string, { tokens: number; at: number }>();
  const take = (region: string, at: number) => {
    const level = bucket.get(region) ?? { tokens: limit.burst, at };
    const tokens = Math.min(limit.burst, level.tokens + ((at - level.at) / 1000) * limit.rate);
    if (tokens < 1) throw new AdsError(429, 'Too Many Requests', Math.max(1, Math.ceil((1 - tokens) / limit.rate)));
    bucket.set(region, { tokens: tokens - 1, at });
  };
  const authenticate = (request: FastifyRequest, region: 'NA' | 'EU' | 'FE', scoped: boolean): FakeSeller => {
    const token = state.tokens.get(String(request.headers.authorization ?? '').replace(/^Bearer /i, ''));
    if (!token || token.api !== 'ads' || !token.sellerId || token.expiresAt <= state.clock.now())
      throw new AdsError(401, 'Not authorized: the access token is invalid or expired');
    if (request.headers['amazon-advertising-api-clientid'] !== state.adsApp.clientId)
      throw new AdsError(401, 'Invalid Amazon-Advertising-API-ClientId');
    const seller = state.sellers.get(token.sellerId)!;
    if (
      scoped &&
      (String(seller.ads?.profileId) !== request.headers['amazon-advertising-api-scope'] || seller.region !== region)
    )
      throw new AdsError(400, 'Invalid Amazon-Advertising-API-Scope for this host');
    return seller;
  };

  app.all('/ads/:region/*', async (request, reply: FastifyReply) => {
    const region = regions[(request.params as { region: string }).region];
    const path = new URL(request.url, 'http://fake').pathname.replace(/^\/ads\/[a-z]+/, '');
    const detail: Record<string, unknown> = {};
    let operation = 'unknown';
    let sellerId: string | null = null;
    let status = 200;
    try {
      if (!region) throw new AdsError(404, 'Not found');
      const create = request.method === 'POST' && path === '/reporting/reports';
      const get = request.method === 'GET' ? /^\/reporting\/reports\/([^/]+)$/.exec(path) : null;
      const route = routes.find((r) => r.method === request.method && r.pattern.test(path));
      operation = route
        ? route.operation
        : create
          ? 'createReport'
          : get
            ? 'getReport'
            : path === '/v2/profiles'
              ? 'listProfiles'
              : path === '/dsp/advertisers'
                ? 'listDspAdvertisers'
                : 'unknown';
      const seller = authenticate(request, region, operation !== 'listProfiles');
      sellerId = seller.sellerId;
      take(region, request.stamp);
      const switches = state.switches.get(operation === 'createReport' ? 'createAdsReport' : operation);
      if (state.switches.draw(switches.throttleRate)) throw new AdsError(429, 'Too Many Requests', 1);
      if (state.switches.draw(switches.serverErrorRate)) throw new AdsError(500, 'Internal Server Error');
      if (route) {
        if (route.contentType && !String(request.headers['content-type'] ?? '').startsWith(route.contentType))
          throw new AdsError(415, `Content-Type must be ${route.contentType}`);
        const params = route.pattern.exec(path)!.slice(1);
        const answer = route.handler({
          state,
          seller,
          at: request.stamp,
          params,
          query: request.query as Record<string, string>,
          body: request.body,
          detail,
        });
        status = answer.status;
        return reply
          .status(answer.status)
          .header('content-type', route.contentType ?? 'application/json')
          .send(answer.body);
      }
      if (operation === 'listProfiles')
        return [...state.sellers.values()]
          .filter((s) => s.ads && s.region === region && s.sellerId === seller.sellerId)
          .map(profileOf);
      if (operation === 'listDspAdvertisers') {
        const ids = seller.ads?.dspAdvertiserId ? [seller.ads.dspAdvertiserId] : [];
        return {
          totalResults: ids.length,
          response: ids.map((advertiserId) => ({
            advertiserId,
            name: `${seller.name} DSP`,
            currency: seller.currency,
            country: seller.countryCode,
            timezone: seller.timezone,
          })),
        };
      }
      if (create) {
        if (
          !String(request.headers['content-type'] ?? '').startsWith('application/vnd.createasyncreportrequest.v3+json')
        )
          throw new AdsError(415, 'Content-Type must be application/vnd.createasyncreportrequest.v3+json');
        const body = validate(request.body as AdsBody | undefined, seller, request.stamp);
        Object.assign(detail, {
          reportTypeId: body.configuration.reportTypeId,
          startDate: body.startDate,
          endDate: body.endDate,
        });
        const duplicate = store.duplicateOf(seller.sellerId, body, switches.twinDuplicates);
        if (duplicate) throw new AdsError(425, `The Request is a duplicate of : ${duplicate.reportId}`);
        const report = store.create(seller.sellerId, body, request.stamp, state.switches.draw(switches.failedRate));
        detail.reportId = report.reportId;
        return store.view(report, base());
      }
      if (get) {
        const report = store.reports.get(get[1]!);
        if (!report || report.sellerId !== seller.sellerId) throw new AdsError(404, `Report ${get[1]} not found`);
        detail.reportId = report.reportId;
        return store.view(store.poll(seller, report, state.switches.get('createAdsReport').stuck), base());
      }
      throw new AdsError(404, 'Not found');
    } catch (error) {
      if (!(error instanceof AdsError)) throw error;
      status = error.status;
      if (error.retryAfter) reply.header('retry-after', String(error.retryAfter));
      return reply.status(error.status).send({ code: String(error.status), detail: error.message });
    } finally {
      state.record({ at: request.stamp, api: 'ads', operation, sellerId, status, overRate: false, detail });
    }
  });
}
