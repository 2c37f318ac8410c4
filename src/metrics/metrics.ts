import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { ConnectorLog } from '../connectors/connectors.ts';
import type { ExportRow } from '../exports/export-jobs.ts';
import type { FetchEvent } from '../pipelines/fetch/execute-fetches.ts';
import type { RunSummary } from '../pipelines/run-pipeline.ts';
import type { DeliveryAttempt } from '../webhooks/deliverer.ts';
import { registerStateGauges, type StateSources } from './state-gauges.ts';

// What `mktdata serve` counts for Prometheus (docs/operations.md, "Metrics"). Every label value comes from a bounded
// set (route patterns, pipeline and source names, statuses), never from a URL, an id typed by a client or an error
// message. The gauges of the state (freshness, queues, balances, disk) are read at scrape time: state-gauges.ts.

/** Whether metrics are on: MKTDATA_METRICS=off turns them off (nothing recorded, `/metrics` answers 404). */
export function metricsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return !/^(off|false|0|no)$/i.test(env.MKTDATA_METRICS?.trim() ?? '');
}

/** Seconds buckets from 5 ms to 10 s: API answers. */
const httpBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds buckets from 1 s to 4 h: pipeline runs, exports, report processing, webhook lag. */
const longBuckets = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200, 14400];

/**
 * The metrics of one process (or one app in a test): its own prom-client registry, never the library's global one,
 * with the instruments and the methods that record what the server's parts report.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly #httpRequests = this.#counter(
    'mktdata_http_requests_total',
    'HTTP requests answered, by route pattern and status.',
    ['method', 'route', 'status'],
  );
  readonly #httpDuration = this.#histogram(
    'mktdata_http_request_duration_seconds',
    'Time to answer an HTTP request, by route pattern.',
    ['method', 'route'],
    httpBuckets,
  );
  readonly #runs = this.#counter(
    'mktdata_pipeline_runs_total',
    'Pipeline runs ended, by outcome (success, partial, failed).',
    ['pipeline', 'outcome'],
  );
  readonly #runDuration = this.#histogram(
    'mktdata_pipeline_run_duration_seconds',
    'Real time a pipeline run took.',
    ['pipeline'],
    longBuckets,
  );
  readonly #windows = this.#counter(
    'mktdata_windows_rebuilt_total',
    'Windows (table, connection, dates) pipeline runs rebuilt successfully.',
    ['pipeline'],
  );
  readonly #documents = this.#counter(
    'mktdata_documents_landed_total',
    'Documents landed (dropped files, fetched documents and notification batches), by source.',
    ['source'],
  );
  readonly #rows = this.#counter('mktdata_rows_landed_total', 'Rows of the documents landed, by source.', ['source']);
  readonly #fetches = this.#counter(
    'mktdata_fetch_requests_total',
    'Fetch requests to the marketplace ended in a run, by source fetched and outcome.',
    ['operation', 'outcome'],
  );
  readonly #rateWaits = this.#counter(
    'mktdata_rate_limit_wait_seconds_total',
    "Time calls waited for their rate limit's token, by API operation.",
    ['operation'],
  );
  readonly #reports = this.#histogram(
    'mktdata_report_processing_seconds',
    "The marketplace's processing time of a report (its creation to its end), by report type.",
    ['report_type'],
    longBuckets,
  );
  readonly #exports = this.#histogram(
    'mktdata_export_duration_seconds',
    'Time an export took from its start to COMPLETED or ERROR.',
    ['outcome'],
    longBuckets,
  );
  readonly #deliveries = this.#counter(
    'mktdata_webhook_deliveries_total',
    'Webhook delivery attempts, by outcome (delivered, retrying, failed: given up).',
    ['outcome'],
  );
  readonly #lag = this.#histogram(
    'mktdata_webhook_delivery_lag_seconds',
    "Time from a webhook event's creation to its delivery.",
    [],
    longBuckets,
  );

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'mktdata_' });
  }

  /** An HTTP answer: `route` is the route's pattern (never the URL), "unmatched" when no route took it. */
  httpRequest(method: string, route: string | undefined, status: number, seconds: number): void {
    const path = route ?? 'unmatched';
    this.#httpRequests.inc({ method, route: path, status: String(status) });
    this.#httpDuration.observe({ method, route: path }, seconds);
  }

  /** A pipeline run that ended with its summary, or threw (`summary` undefined: counted as failed). */
  pipelineRun(pipeline: string, seconds: number, summary?: RunSummary): void {
    this.#runs.inc({ pipeline, outcome: summary?.status ?? 'failed' });
    this.#runDuration.observe({ pipeline }, seconds);
    const rebuilt = summary?.windows.filter((w) => w.status === 'success').length ?? 0;
    this.#windows.inc({ pipeline }, rebuilt);
  }

  /** A document that landed (skipped and refused ones are not counted). */
  landed(result: { status: string; source: string; rows?: number }): void {
    if (result.status !== 'landed') return;
    this.#documents.inc({ source: result.source });
    this.#rows.inc({ source: result.source }, result.rows ?? 0);
  }

  /** A fetch request that ended in a run, with the report's processing time when it had one. */
  fetched(event: FetchEvent): void {
    this.#fetches.inc({ operation: event.request.source, outcome: event.status });
    if (event.reportProcessingMs !== undefined)
      this.#reports.observe({ report_type: event.request.source }, event.reportProcessingMs / 1000);
  }

  /** The connectors' log of each call: the time it waited for its rate limit's token. */
  readonly connectorLog: ConnectorLog = (event) => {
    const waited = Number(event.waitedMs ?? 0);
    if (waited > 0) this.#rateWaits.inc({ operation: String(event.operation) }, waited / 1000);
  };

  /** An export that ended (COMPLETED or ERROR), timed from its start to its end as its row records them. */
  exportFinished(row: ExportRow): void {
    const started = Date.parse(row.started_at ?? row.created_at);
    const ended = Date.parse(row.completed_at ?? '');
    const outcome = row.status === 'COMPLETED' ? 'completed' : 'error';
    if (Number.isFinite(started) && Number.isFinite(ended))
      this.#exports.observe({ outcome }, Math.max(0, ended - started) / 1000);
  }

  /** A webhook delivery attempt; a delivered one adds its lag from the event's creation. */
  webhookAttempt(attempt: DeliveryAttempt): void {
    const outcome = attempt.status === 'DELIVERED' ? 'delivered' : attempt.status === 'FAILED' ? 'failed' : 'retrying';
    this.#deliveries.inc({ outcome });
    if (attempt.status === 'DELIVERED')
      this.#lag.observe(Math.max(0, Date.parse(attempt.at) - Date.parse(attempt.createdAt)) / 1000);
  }

  #counter(name: string, help: string, labelNames: string[]): Counter {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  #histogram(name: string, help: string, labelNames: string[], buckets: number[]): Histogram {
    return new Histogram({ name, help, labelNames, buckets, registers: [this.registry] });
  }
}

/**
 * The metrics of a serving process, with the gauges of its state read from `sources`; undefined when switched off
 * (`enabled` false, or MKTDATA_METRICS=off).
 */
export function serverMetrics(sources: StateSources, enabled = metricsEnabled()): Metrics | undefined {
  if (!enabled) return undefined;
  const metrics = new Metrics();
  registerStateGauges(metrics.registry, sources);
  return metrics;
}
