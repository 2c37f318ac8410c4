import { Cron } from 'croner';
import type { RunTrigger } from '../db/control-plane.ts';
import type { Warehouse } from '../db/warehouse.ts';
import type { Pipeline } from './pipeline-config.ts';
import { localClock } from './plan.ts';
import { planConnections } from './run-history.ts';
import { runPipeline, type RunPipelineOptions, type RunSummary } from './run-pipeline.ts';
import { type RunFetcher } from './fetch/fetch-stage.ts';

/** A tick every minute: none ended for this long means the scheduler is stuck (two missed ticks and a half). */
const STALE_MS = 150_000;

/** A run asked for now: which pipelines (all by default), and which connections to refresh whether due or not. */
export interface RunRequest {
  pipeline?: string;
  refresh?: string[];
  trigger: RunTrigger;
}

/** What the scheduler tells its owner about the runs it starts (`mktdata serve` prints them and counts them). */
export interface SchedulerHooks {
  /** A run ended, after `ms` real milliseconds. */
  onRun?: (summary: RunSummary, ms: number) => void;
  /** A run threw (logged as failed; the next run recovers its windows), after `ms` real milliseconds. */
  onRunThrew?: (pipeline: string, ms: number) => void;
  /** Each file dropped in landing/ that a run landed, skipped or refused. */
  onLanded?: RunPipelineOptions['onLanded'];
}

/** A pipeline's run waiting in the queue, and the connections it is to refresh. */
interface Waiting {
  trigger: RunTrigger;
  refresh: Set<string>;
}

/**
 * Runs pipelines at their refresh times, in each connection's marketplace timezone (`mktdata serve`), and when asked
 * (a connection connected, the console's "run now"). A croner job ticks every minute; a pipeline is started when the
 * minute is one of its refresh times for any connection's local clock (so connections added while serving are
 * scheduled too). Runs go one at a time (one writer), and a pipeline that is running or waiting is not queued again
 * (a request for a waiting one adds its connections to refresh): runs of one pipeline never overlap.
 */
export class PipelineScheduler {
  #cron: Cron | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #stopped = false;
  /** When the cron started, and when its last tick ended (wall clock, ms). */
  #startedAt: number | undefined;
  #tickedAt: number | undefined;
  /** The pipeline whose run is in progress. */
  #running: string | undefined;
  readonly #waiting = new Map<string, Waiting>();

  constructor(
    private readonly wh: Warehouse,
    private readonly pipelines: Pipeline[],
    private readonly log: (message: string, error?: unknown) => void,
    private readonly hooks: SchedulerHooks = {},
    /** The live connectors for a run (asked again each run: credentials may have been added). */
    private readonly fetcher?: () => Promise<RunFetcher | undefined>,
  ) {}

  start(): void {
    this.#startedAt = Date.now();
    this.#cron = new Cron(
      '* * * * *',
      { protect: true, catch: (e) => this.log('pipeline scheduling failed', e) },
      async () => {
        try {
          await this.tick(new Date());
        } finally {
          this.#tickedAt = Date.now();
        }
      },
    );
  }

  /**
   * Null while it schedules: started, not stopped, and a minute's tick ended within the last STALE_MS (a tick only
   * queues runs, so a long run does not hold it up); else why not, for `/ready`.
   */
  liveness(now = Date.now()): string | null {
    if (this.#stopped) return 'the scheduler is stopped (the server is stopping)';
    if (!this.#cron || this.#startedAt === undefined) return 'the scheduler has not started';
    if (!this.#cron.isRunning()) return 'the scheduler is not running';
    const since = this.#tickedAt ?? this.#startedAt;
    if (now - since > STALE_MS) return `no scheduling tick ended for ${Math.round((now - since) / 1000)} s`;
    return null;
  }

  /** The pipeline whose run is in progress, if one is. */
  running(): string | undefined {
    return this.#running;
  }

  /** Starts every pipeline due at this minute; returns their names. */
  async tick(now: Date): Promise<string[]> {
    const zones = [...new Set((await planConnections(this.wh)).map((c) => c.timezone))];
    const due = this.pipelines.filter((p) => zones.some((zone) => p.refreshAt.includes(localClock(now, zone).minutes)));
    for (const pipeline of due) this.trigger(pipeline, now);
    return due.map((p) => p.name);
  }

  /** Queues runs asked for now; returns the names of the pipelines queued (or already waiting). */
  request(run: RunRequest): string[] {
    const chosen = run.pipeline ? this.pipelines.filter((p) => p.name === run.pipeline) : this.pipelines;
    for (const pipeline of chosen) this.trigger(pipeline, undefined, run.trigger, run.refresh);
    return chosen.map((p) => p.name);
  }

  /** Queues a run unless one of the pipeline is waiting (then it refreshes `refresh` too). */
  trigger(pipeline: Pipeline, now?: Date, trigger: RunTrigger = 'schedule', refresh: string[] = []): void {
    const waiting = this.#waiting.get(pipeline.name);
    if (waiting) {
      for (const id of refresh) waiting.refresh.add(id);
      return;
    }
    const entry: Waiting = { trigger, refresh: new Set(refresh) };
    this.#waiting.set(pipeline.name, entry);
    this.#queue = this.#queue.then(async () => {
      // From here on a new request queues a run of its own: this one has planned.
      this.#waiting.delete(pipeline.name);
      if (this.#stopped) return;
      this.#running = pipeline.name;
      const started = performance.now();
      try {
        const summary = await runPipeline(this.wh, pipeline, {
          now,
          trigger: entry.trigger,
          refresh: entry.refresh,
          fetcher: await this.fetcher?.(),
          onLanded: this.hooks.onLanded,
        });
        this.hooks.onRun?.(summary, performance.now() - started);
      } catch (error) {
        this.log(`pipeline ${pipeline.name} failed`, error);
        this.hooks.onRunThrew?.(pipeline.name, performance.now() - started);
      } finally {
        this.#running = undefined;
      }
    });
  }

  /** Runs other writing work (landing notifications, commands of the admin channel) in turn with the runs. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(work);
    this.#queue = result.catch(() => {});
    return result;
  }

  /** Waits until nothing is running or queued (runs queued meanwhile included). */
  async idle(): Promise<void> {
    for (let seen: Promise<unknown> | undefined; seen !== this.#queue;) {
      seen = this.#queue;
      await seen;
    }
  }

  /** Stops scheduling and waits for the run in progress; runs still waiting do not start. */
  async stop(): Promise<void> {
    this.#cron?.stop();
    this.#stopped = true;
    await this.idle();
  }
}
