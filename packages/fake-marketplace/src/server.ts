import fastifyFormbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { systemClock, type Clock } from './clock.ts';
import { adsApiRoutes } from './ads/ads-api.ts';
import { adsManagementRoutes } from './ads/ads-management.ts';
import { actionSpRoutes } from './sp/action-operations.ts';
import { AdsReportStore } from './ads/ads-reports.ts';
import { consentRoutes } from './consent.ts';
import { fakeData } from './data/index.ts';
import type { FakeSeller } from './data/sellers.ts';
import type { FakeData } from './data/types.ts';
import { DocumentStore } from './documents.ts';
import { lwaRoutes } from './lwa.ts';
import type { RequestLogEntry } from './request-log.ts';
import { listingsRoutes } from './sp/listings-operations.ts';
import { ReportStore } from './sp/report-store.ts';
import { reportRoutes } from './sp/reports.ts';
import { spApiRoutes } from './sp/sp-api.ts';
import { supplyRoutes } from './sp/supply-operations.ts';
import { FakeState, type FakeApi, type FakeApp } from './state.ts';
import { Switches, type OperationSwitch } from './switches.ts';
import { Throttle } from './throttle.ts';
import { NotificationQueue } from './sqs.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** When the request arrived, on the clock (at the latest). */
    stamp: number;
    /** The earliest it can have arrived (before `stamp` when the event loop had stalled). */
    earliest: number;
  }
}

export type { FakeApp, RequestLogEntry, OperationSwitch };

export interface FakeMarketplaceOptions {
  sellers: FakeSeller[];
  /** @default the data library (src/fake-marketplace/data) */
  data?: FakeData;
  /** @default the system clock */
  clock?: Clock;
  spApp?: FakeApp;
  adsApp?: FakeApp;
  /** @default 127.0.0.1 */
  host?: string;
  /** @default 0 (any free port) */
  port?: number;
  /** LWA `expires_in`. @default 3600 */
  accessTokenSeconds?: number;
  /** getReport polls per state before a report ends. @default { inQueue: 1, inProgress: 1 } */
  polls?: { inQueue: number; inProgress: number };
  /** Ads report polls per state. @default { pending: 1, processing: 1 } */
  adsPolls?: { pending: number; processing: number };
  /** Refuse requests over the documented buckets with 429 (they are counted either way). @default true */
  throttling?: boolean;
  /** Ads reporting's regional limit. @default { rate: 10, burst: 20 } */
  adsRegionLimit?: { rate: number; burst: number };
  /** Seed of the fault switches' draws. @default 1 */
  seed?: number;
  /**
   * Serve the sellers' data (report documents, settlements, ads reports) as it stood at this instant, whatever the
   * clock says; the clock still drives rate limits, tokens and report processing. Two homes that fetch the same
   * windows at different times then get the same documents. @default the time of each request
   */
  dataAsOf?: number;
  /** The share of notifications the queue delivers twice. @default 0.1 */
  duplicateNotifications?: number;
  /**
   * Keep each SP-API request and answer in its log entry (`exchange`), for checking both against the published
   * models. @default false (a long run would hold every answer)
   */
  recordExchanges?: boolean;
  /**
   * Called with each request as it is answered and logged: a test can act at an exact request (kill the client that
   * sent it, say) rather than at whatever request a timer finds.
   */
  onRequest?: (entry: RequestLogEntry) => void;
}

/** An SP-API operation the fake serves. */
export interface ServedOperation {
  method: string;
  pattern: RegExp;
  operation: string;
}

/** A running fake marketplace. */
export interface FakeMarketplace {
  url: string;
  spApp: FakeApp;
  adsApp: FakeApp;
  /** A refresh token, as if the seller authorized the app (SP-API) or the advertiser did (Ads). */
  grant(sellerId: string, api: FakeApi): string;
  revoke(refreshToken: string): void;
  /** Every request, in order of arrival. */
  log: RequestLogEntry[];
  /** The SP-API operations it serves: method, path under the region's host, the model's operationId. */
  operations: ServedOperation[];
  setSwitch(operation: string, change: Partial<OperationSwitch>): void;
  /** The SQS queue notifications are published to, and its URL (the fake's `/sqs`). */
  notifications: NotificationQueue;
  queueUrl: string;
  close(): Promise<void>;
}

/** The default applications: fixed, so that `mktdata fake-marketplace` can print them for a first session by hand. */
export const defaultSpApp: FakeApp = {
  clientId: 'amzn1.application-oa2-client.fakemktdata0001',
  clientSecret: 'amzn1.oa2-cs.v1.fake-sp-secret-0001',
  applicationId: 'amzn1.sp.solution.fake-0001',
};
export const defaultAdsApp: FakeApp = {
  clientId: 'amzn1.application-oa2-client.fakemktdataads1',
  clientSecret: 'amzn1.oa2-cs.v1.fake-ads-secret-0001',
  applicationId: 'amzn1.ads.fake-0001',
};

/**
 * When requests arrive, on the clock. On a fast clock a stalled event loop (a document being generated, a file being
 * landed in the same process) hides when a request came in: one read after a stall arrived somewhere between the
 * stall's start and now. A heartbeat every millisecond notices stalls; a request's arrival is that window (`earliest`
 * and `stamp`, equal when the loop ran freely). The system clock needs no heartbeat.
 */
function arrivalStamps(clock: Clock): { stamp(): { earliest: number; stamp: number }; stop(): void } {
  // The system clock and a clock that moves only when its readers wait (no speed) stand still during a stall.
  if (clock === systemClock || !clock.speed)
    return { stamp: () => ({ earliest: clock.now(), stamp: clock.now() }), stop: () => {} };
  let beatReal = performance.now();
  let beatClock = clock.now();
  // After a stall the timers run before the waiting requests are read: the stall's start holds for this loop turn.
  let stalledAt: number | null = null;
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - beatReal > 3) {
      stalledAt = beatClock;
      setImmediate(() => (stalledAt = null));
    }
    beatReal = now;
    beatClock = clock.now();
  }, 1);
  timer.unref();
  return {
    stamp: () => {
      const now = clock.now();
      return { earliest: stalledAt ?? (performance.now() - beatReal > 3 ? beatClock : now), stamp: now };
    },
    stop: () => clearInterval(timer),
  };
}

/** The fake's HTTP app (routes, parsers, arrival stamps), not listening, and the SP-API operations it serves. */
function buildFakeApp(
  state: FakeState,
  options: FakeMarketplaceOptions,
  base: () => string,
  queue: NotificationQueue,
): { app: FastifyInstance; operations: ServedOperation[] } {
  const app = Fastify({ logger: false, bodyLimit: 10 * 1024 * 1024 });
  app.decorateRequest('stamp', 0);
  app.decorateRequest('earliest', 0);
  const arrival = arrivalStamps(state.clock);
  app.addHook('onRequest', async (request) => {
    ({ earliest: request.earliest, stamp: request.stamp } = arrival.stamp());
  });
  app.addHook('onClose', async () => arrival.stop());
  // Every answer carries an HTTP Date (RFC 9110 §6.6.1) as the marketplace's do, read on the fake's own clock rather
  // than Node's, so that a fake started off real time looks like a marketplace whose clock differs from the client's.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('date', new Date(state.clock.now()).toUTCString());
  });
  void app.register(fastifyFormbody);
  // The Ads API's vendor media types (application/vnd.createasyncreportrequest.v3+json,
  // application/vnd.spCampaign.v3+json, …).
  app.addContentTypeParser(/^application\/vnd\.[^;]+\+json/, { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, JSON.parse(String(body)));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  const documents = new DocumentStore(state);
  const reports = new ReportStore(state, documents, options.polls ?? { inQueue: 1, inProgress: 1 });
  const adsReports = new AdsReportStore(state, documents, options.adsPolls ?? { pending: 1, processing: 1 });
  lwaRoutes(app, state);
  consentRoutes(app, state);
  documents.routes(app);
  const spRoutes = [
    ...reportRoutes(reports, documents),
    ...listingsRoutes(),
    ...supplyRoutes(),
    ...actionSpRoutes(documents),
  ];
  spApiRoutes(app, state, spRoutes, base, options.recordExchanges);
  adsApiRoutes(app, state, adsReports, base, options.adsRegionLimit ?? { rate: 10, burst: 20 }, adsManagementRoutes());
  queue.routes(app);
  // The request log, from entry `from` on: what a benchmark running the fake in another process counts.
  app.get('/_fake/log', async (request) => state.log.slice(Number((request.query as { from?: string }).from ?? 0)));
  return { app, operations: spRoutes.map(({ method, pattern, operation }) => ({ method, pattern, operation })) };
}

/** Starts the fake marketplace on loopback: LWA, consent pages, SP-API and Ads API hosts, and documents. */
export async function startFakeMarketplace(options: FakeMarketplaceOptions): Promise<FakeMarketplace> {
  const switches = new Switches(options.seed ?? 1);
  const spApp = options.spApp ?? defaultSpApp;
  const adsApp = options.adsApp ?? defaultAdsApp;
  const state = new FakeState(
    options.sellers,
    options.data ?? fakeData,
    options.clock ?? systemClock,
    spApp,
    adsApp,
    switches,
    new Throttle(options.throttling ?? true, () => (options.clock ?? systemClock).speed?.() ?? 1),
    options.accessTokenSeconds ?? 3600,
    options.dataAsOf,
  );
  state.onRecord = options.onRequest;
  let url = '';
  const queue = new NotificationQueue(options.duplicateNotifications ?? 0.1);
  const { app, operations } = buildFakeApp(state, options, () => url, queue);
  url = (await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 })).replace(
    '[::1]',
    '127.0.0.1',
  );
  return {
    url,
    spApp,
    adsApp,
    grant: (sellerId, api) => state.grant(sellerId, api),
    revoke: (refreshToken) => {
      const grant = state.grants.get(refreshToken);
      if (grant) grant.revoked = true;
    },
    log: state.log,
    operations,
    setSwitch: (operation, change) => switches.set(operation, change),
    notifications: queue,
    queueUrl: `${url}/sqs/000000000000/mktdata-notifications`,
    close: () => closeSoon(app),
  };
}

/**
 * The environment that points mktdata at a fake marketplace: its URL, its applications, and (for a clock other than
 * the system's) the MKTDATA_CLOCK_* variables that make mktdata read the same time.
 */
export function fakeMarketplaceEnv(
  fake: FakeMarketplace,
  clock?: { speed: number; start: number; realStart: number } | { file: string; start: number },
): Record<string, string> {
  return {
    MKTDATA_MARKETPLACE_URL: fake.url,
    MKTDATA_SP_API_APPLICATION_ID: fake.spApp.applicationId,
    MKTDATA_SP_API_CLIENT_ID: fake.spApp.clientId,
    MKTDATA_SP_API_CLIENT_SECRET: fake.spApp.clientSecret,
    MKTDATA_ADS_CLIENT_ID: fake.adsApp.clientId,
    MKTDATA_ADS_CLIENT_SECRET: fake.adsApp.clientSecret,
    MKTDATA_NOTIFICATIONS_QUEUE_URL: fake.queueUrl,
    ...(clock && 'file' in clock
      ? { MKTDATA_CLOCK_FILE: clock.file, MKTDATA_CLOCK_START: new Date(clock.start).toISOString() }
      : clock
        ? {
            MKTDATA_CLOCK_SPEED: String(clock.speed),
            MKTDATA_CLOCK_START: new Date(clock.start).toISOString(),
            MKTDATA_CLOCK_REAL_START: String(clock.realStart),
          }
        : {}),
  };
}

/**
 * Closes the fake without waiting out keep-alive timeouts (72 s in Fastify): idle connections are closed while
 * requests in flight finish, and whatever is still open after two seconds is cut, as a marketplace going away would.
 */
async function closeSoon(app: FastifyInstance): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
  const cut = setTimeout(() => app.server.closeAllConnections(), 2_000);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
    clearTimeout(cut);
  }
}
