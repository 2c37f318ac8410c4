import type PgBoss from 'pg-boss';
import type { ControlStore } from '../db/control-store.ts';
import { acquireShard, releaseShard, renewShard, type ShardLease } from '../control/shard-leases.ts';
import { queueOf, requeueRunning, type PipelineJob } from './pipeline-jobs.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { runShard, type ShardRunResult } from './shard-run.ts';
import type { ScaleConfig } from './scale-config.ts';
import { firePipelines } from './pipeline-timer.ts';
import { loadPipelines } from '../pipelines/pipeline-config.ts';
import { abandonShardRuns } from './shard-runs.ts';

/** Options of `mktdata worker`. */
export interface ShardWorkerOptions {
  /** This worker's name in leases and runs. */
  id: string;
  /** Its own disk, where the warehouses of the shards it holds live. */
  workDir: string;
  /** How long a lease lasts without renewal; renewed three times as often. */
  leaseMs: number;
  /** How often an idle queue is asked for a job. @default 2 */
  pollSeconds?: number;
  /** Queue the pipelines' runs at their refresh times. @default true */
  schedule?: boolean;
  log: (message: string) => void;
  onRun?: (result: ShardRunResult) => void;
  /** Counts its shard runs, their fetches and landings (`mktdata worker --port` serves them at `/metrics`). */
  metrics?: Metrics;
}

/**
 * A worker of a scaled-out install. Every lease period / 3 it records its heartbeat, renews the leases it holds,
 * gives up those beyond its share (the shards over the workers alive) and takes free or lapsed ones up to it. For
 * each shard it holds it takes that shard's queue's jobs, one at a time, and runs them on the shard's warehouse.
 * A shard taken over with a run its former holder did not finish gets a run queued at once. It also queues the
 * pipelines' runs at their refresh times (`firePipelines`).
 */
export class ShardWorker {
  readonly #held = new Map<string, ShardLease>();
  readonly #busy = new Map<string, Promise<unknown>>();
  #timer: NodeJS.Timeout | undefined;
  #ticking: Promise<void> = Promise.resolve();
  #lastMinute = 0;
  /** When its last round of leases ended well (wall clock, ms); undefined once stopped. */
  #tickedAt: number | undefined;

  constructor(
    private readonly store: ControlStore,
    private readonly boss: PgBoss,
    private readonly config: ScaleConfig,
    private readonly options: ShardWorkerOptions,
  ) {}

  /** The shards it holds now. */
  held(): string[] {
    return [...this.#held.keys()].sort();
  }

  /**
   * Null while its loop keeps its leases: a round ended well within the lease time; else why not, for `/ready`.
   */
  liveness(now = Date.now()): string | null {
    if (this.#tickedAt === undefined) return 'the shard loop is not running (stopped, or not started)';
    const since = now - this.#tickedAt;
    if (since > this.options.leaseMs)
      return `no round of the shard loop ended well for ${Math.round(since / 1000)} s: its leases lapse after ${this.options.leaseMs / 1000} s`;
    return null;
  }

  /** The shards whose runs are in progress. */
  busy(): string[] {
    return [...this.#busy.keys()].sort();
  }

  async start(): Promise<void> {
    await this.tick();
    this.#tickedAt = Date.now();
    this.#timer = setInterval(() => {
      this.#ticking = this.#ticking
        .then(() => this.tick())
        .then(() => {
          if (this.#timer) this.#tickedAt = Date.now();
        })
        .catch((error) => this.options.log(`worker ${this.options.id}: ${(error as Error).message}`));
    }, this.options.leaseMs / 3);
  }

  /** Stops taking jobs, lets the running ones finish, and gives its shards back. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#tickedAt = undefined;
    await this.#ticking;
    for (const shard of this.#held.keys()) await this.boss.offWork(queueOf(shard));
    await Promise.allSettled(this.#busy.values());
    for (const lease of this.#held.values()) await this.release(lease);
    this.#held.clear();
    await this.store.db.deleteFrom('control.workers').where('id', '=', this.options.id).execute();
  }

  private async tick(): Promise<void> {
    const now = new Date();
    const { id, leaseMs } = this.options;
    await this.store.db
      .insertInto('control.workers')
      .values({ id, seen_at: now.toISOString() })
      .onConflict((oc) => oc.column('id').doUpdateSet({ seen_at: now.toISOString() }))
      .execute();
    for (const lease of [...this.#held.values()]) {
      if (await renewShard(this.store, lease, leaseMs, now)) lease.expiresAt = new Date(now.getTime() + leaseMs);
      else await this.drop(lease.shard, 'its lease was taken over');
    }
    // The pipelines due this minute (every worker looks; one queues them).
    const minute = Math.floor(now.getTime() / 60_000);
    if (this.options.schedule !== false && minute !== this.#lastMinute) {
      this.#lastMinute = minute;
      for (const name of await firePipelines(this.store, this.boss, loadPipelines(), this.config.shards, now))
        this.options.log(`pipeline ${name} due: a run queued for every shard`);
    }
    const alive = await this.store.db
      .selectFrom('control.workers')
      .select('id')
      .where('seen_at', '>', new Date(now.getTime() - leaseMs).toISOString())
      .execute();
    const share = Math.ceil(this.config.shards.length / Math.max(1, alive.length));
    for (const shard of this.held().slice(share)) {
      if (this.#busy.has(shard)) continue;
      await this.release(this.#held.get(shard)!);
      await this.drop(shard, `${alive.length} workers share ${this.config.shards.length} shards`);
    }
    // Each worker starts looking at its own place in the list, so that workers starting together spread out.
    const offset = Number.parseInt(id.replace(/\D/g, '') || '0', 10) % this.config.shards.length;
    const order = [...this.config.shards.slice(offset), ...this.config.shards.slice(0, offset)];
    for (const shard of order) {
      if (this.#held.size >= share) break;
      if (this.#held.has(shard)) continue;
      const lease = await acquireShard(this.store, shard, id, leaseMs, now);
      if (lease) await this.take(lease);
    }
  }

  private async take(lease: ShardLease): Promise<void> {
    this.#held.set(lease.shard, lease);
    this.options.log(`worker ${this.options.id} holds ${lease.shard} (fencing token ${lease.token})`);
    // Jobs a former holder started and never finished: queued again now rather than after they time out.
    const requeued = await requeueRunning(this.store, this.boss, lease.shard, `taken over by ${this.options.id}`);
    if (requeued.length > 0)
      this.options.log(`${lease.shard}: ${requeued.join(', ')} run(s) its former holder left unfinished queued again`);
    await abandonShardRuns(
      this.store.db,
      lease.shard,
      lease.token,
      `its worker lost ${lease.shard}; the run was queued again`,
    );
    await this.boss.work<PipelineJob>(
      queueOf(lease.shard),
      { pollingIntervalSeconds: this.options.pollSeconds ?? 2 },
      async ([job]) => this.run(job!.id, job!.data),
    );
  }

  private async drop(shard: string, why: string): Promise<void> {
    this.#held.delete(shard);
    await this.boss.offWork(queueOf(shard));
    this.options.log(`worker ${this.options.id} gave up ${shard}: ${why}`);
  }

  private async release(lease: ShardLease): Promise<void> {
    await releaseShard(this.store, lease);
  }

  /**
   * Runs a job of a shard it holds; a job of a shard it no longer holds fails, and pg-boss retries it for the new
   * holder.
   */
  private async run(jobId: string, job: PipelineJob): Promise<ShardRunResult> {
    const lease = this.#held.get(job.shard);
    if (!lease) throw new Error(`worker ${this.options.id} no longer holds ${job.shard}`);
    const previous = this.#busy.get(job.shard) ?? Promise.resolve();
    const running = previous
      .catch(() => undefined)
      .then(() =>
        runShard(
          { ...this.options, store: this.store, config: this.config, worker: this.options.id, lease },
          { id: jobId, pipeline: job.pipeline, trigger: job.reason.startsWith('schedule') ? 'schedule' : 'cli' },
        ),
      );
    this.#busy.set(job.shard, running);
    try {
      const result = await running;
      this.options.onRun?.(result);
      return result;
    } finally {
      if (this.#busy.get(job.shard) === running) this.#busy.delete(job.shard);
    }
  }
}
