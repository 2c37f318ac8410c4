import type { FastifyInstance } from 'fastify';
import type { ActionWorker } from '../actions/action-worker.ts';
import type { Connectors } from '../connectors/connectors.ts';
import type { Warehouse } from '../db/warehouse.ts';
import type { ExportWorker } from '../exports/export-worker.ts';
import type { ScheduleRunner } from '../exports/schedule-runner.ts';
import type { Home } from '../home.ts';
import type { RunRequest } from '../pipelines/pipeline-scheduler.ts';
import type { WebhookDeliverer } from '../webhooks/deliverer.ts';
import type { Networks } from '../webhooks/address.ts';
import type { Limiter } from './rate-limit.ts';
import type { ReadyReport } from './readiness/ready-report.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Freshness } from '../catalog/catalog.ts';

/** What the HTTP app needs: the warehouse (control plane), the home (published snapshot) and its limits. */
export interface AppDeps {
  wh: Warehouse;
  home: Home;
  /** Requests per second per organization over key-protected endpoints. @default 2 */
  requestsPerSecond?: number;
  /** Clock in ms, for tests. @default Date.now */
  now?: () => number;
  /** Fastify logger options; false in tests. @default pino at info level */
  logger?: boolean | object;
  /** Exports written at the same time. @default 2 */
  exportWorkers?: number;
  /** Hours a completed export file stays downloadable. @default 24 */
  exportRetentionHours?: number;
  /** Minutes a signed download link stays valid. @default 15 */
  signedUrlMinutes?: number;
  /**
   * The live connectors (application, endpoints, clients): invitations then connect through the marketplace's consent.
   */
  connectors?: Connectors;
  /** Networks webhooks may reach besides public addresses. @default MKTDATA_WEBHOOK_ALLOWED_NETWORKS */
  webhookAllowedNetworks?: Networks;
  /** How often the webhook outbox is looked at, in ms. @default 1000 */
  webhookIntervalMs?: number;
  /** Run queued actions (tests turn it off to look at the queue). @default true */
  runActions?: boolean;
  /** The operator key of the console (sees every organization). @default MKTDATA_OPERATOR_KEY */
  operatorKey?: string;
  /**
   * The rate limit; API replicas of a scaled-out install share theirs in PostgreSQL. @default in this process's memory
   */
  limiter?: Limiter;
  /**
   * Queues pipeline runs now (`mktdata serve`): a connection's first load when it connects, the console's "run now";
   * returns the pipelines queued. Without it they wait for the next refresh time.
   */
  runNow?: (request: RunRequest) => string[];
  /**
   * What `GET /ready` answers: the checks of the process that serves (`mktdata serve`, an API replica).
   * @default the warehouse, the published snapshot and the home's disk
   */
  ready?: () => Promise<ReadyReport>;
  /** The process's metrics: with them the app counts its answers, exports and webhooks and serves `/metrics`. */
  metrics?: Metrics;
  /** Interfaces built on the API that add their routes to its app (`mktdata serve` adds MCP's `/mcp`). */
  extensions?: AppExtension[];
}

/** What an extension of the app works with: the same deps, services, rate limit and catalog freshness as the API. */
export interface AppContext {
  deps: AppDeps;
  services: ExportServices;
  limiter: Limiter;
  freshness: () => Promise<Map<string, Freshness>>;
}

/** Adds routes to the app, after the API's own (and under its key check, rate limit and error replies). */
export type AppExtension = (app: FastifyInstance, context: AppContext) => Promise<void>;

/** The export machinery behind the routes: workers, schedules and the link signing key. */
export interface ExportServices {
  worker: ExportWorker;
  schedules: ScheduleRunner;
  /** The webhook outbox's delivery loop. */
  deliverer: WebhookDeliverer;
  /** The queue of actions, run through the live connectors. */
  actions: ActionWorker;
  signingKey: string;
  signedUrlTtlMs: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The organization of the request's API key (key-protected routes only). */
    organizationId: string;
  }
  interface FastifyInstance {
    /** Export workers and schedules, started when the app is ready and stopped when it closes. */
    exportServices: ExportServices;
  }
  interface FastifyContextConfig {
    /** The route needs `service-api-key` and counts against the rate limit. */
    auth?: boolean;
    /** The route takes its rate-limit tokens itself (`/mcp`: one per tool call, not per protocol message). */
    ownRateLimit?: boolean;
  }
}

export type App = FastifyInstance;
export const apiPrefix = '/api/v1';
