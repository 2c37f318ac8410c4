import { Cron } from 'croner';
import type { Warehouse } from '../db/warehouse.ts';
import type { Pipeline } from './pipeline-config.ts';
import { localClock } from './plan.ts';
import { planConnections } from './run-history.ts';
import { runPipeline, type RunFetcher, type RunSummary } from './run-pipeline.ts';

/**
 * Runs pipelines at their refresh times, in each connection's marketplace timezone (`mktdata serve`). A croner job
 * ticks every minute; a pipeline is started when the minute is one of its refresh times for any connection's local
 * clock (so connections added while serving are scheduled too). Runs go one at a time (one writer), and a pipeline
 * that is running or waiting is not queued again: runs of one pipeline never overlap.
 */
export class PipelineScheduler {
  #cron: Cron | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #waiting = new Set<string>();

  constructor(
    private readonly wh: Warehouse,
    private readonly pipelines: Pipeline[],
    private readonly log: (message: string, error?: unknown) => void,
    private readonly onRun?: (summary: RunSummary) => void,
    /** The live connectors for a run (asked again each run: credentials may have been added). */
    private readonly fetcher?: () => Promise<RunFetcher | undefined>,
  ) {}

  start(): void {
    this.#cron = new Cron('* * * * *', { protect: true, catch: (e) => this.log('pipeline scheduling failed', e) }, async () => {
      await this.tick(new Date());
    });
  }

  /** Starts every pipeline due at this minute; returns their names. */
  async tick(now: Date): Promise<string[]> {
    const zones = [...new Set((await planConnections(this.wh)).map((c) => c.timezone))];
    const due = this.pipelines.filter((p) => zones.some((zone) => p.refreshAt.includes(localClock(now, zone).minutes)));
    for (const pipeline of due) this.trigger(pipeline, now);
    return due.map((p) => p.name);
  }

  /** Queues a run unless one of the pipeline is running or waiting. */
  trigger(pipeline: Pipeline, now?: Date): void {
    if (this.#waiting.has(pipeline.name)) return;
    this.#waiting.add(pipeline.name);
    this.#queue = this.#queue.then(async () => {
      try {
        const summary = await runPipeline(this.wh, pipeline, { now, trigger: 'schedule', fetcher: await this.fetcher?.() });
        this.onRun?.(summary);
      } catch (error) {
        this.log(`pipeline ${pipeline.name} failed`, error);
      } finally {
        this.#waiting.delete(pipeline.name);
      }
    });
  }

  /** Runs other writing work (landing notifications) in turn with the runs: the home has one writer. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(work);
    this.#queue = result.catch(() => {});
    return result;
  }

  /** Stops scheduling and waits for the run in progress. */
  async stop(): Promise<void> {
    this.#cron?.stop();
    await this.#queue;
  }
}
