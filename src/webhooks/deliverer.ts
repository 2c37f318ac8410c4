import { Webhook } from 'standardwebhooks';
import { PassLoop } from '../control/pass-loop.ts';
import type { Warehouse } from '../db/warehouse.ts';
import { postWebhook, type Networks } from './address.ts';
import { disableSubscription, subscriptionSecret } from './subscriptions.ts';
import {
  claimDeliveries,
  dueDeliveries,
  failPendingDeliveries,
  recordDeliveryOutcomes,
  type DeliveryOutcome,
  type DueDelivery,
} from './deliveries.ts';

/** How long deliveries of an event are retried before they are given up (and their subscription disabled). */
export const retryWindowMs = 24 * 3_600_000;

/** How long past its batch's longest possible time a claimed delivery stays claimed. */
const claimMs = 60_000;

/** The wait before attempt `attempts + 1`: exponential from 5 s, at most an hour, with ±50 % jitter. */
export const backoffMs = (attempts: number, random = Math.random()) =>
  Math.min(5_000 * 2 ** (attempts - 1), 3_600_000) * (0.5 + random);

/** What an attempt came to: the delivery's new state. */
interface Outcome {
  delivery: DueDelivery;
  row: DeliveryOutcome;
}

export interface DelivererOptions {
  /** Where webhooks may go besides public addresses (webhooks/address.ts). */
  networks: Networks;
  now?: () => number;
  /** Deliveries in flight at once. @default 8 */
  concurrency?: number;
  /** How often the outbox is looked at. @default 1000 */
  intervalMs?: number;
  /** A 2xx within this time counts as delivered. @default 10000 */
  timeoutMs?: number;
  log?: (message: string) => void;
  /** Each attempt's outcome, once recorded (the metrics count them). */
  onAttempt?: (attempt: DeliveryAttempt) => void;
}

/** What one delivery attempt came to: the delivery's new status, when it was made and when its event was created. */
export interface DeliveryAttempt {
  status: DeliveryOutcome['status'];
  /** ISO time of the attempt. */
  at: string;
  /** ISO time the delivery was queued, with its event. */
  createdAt: string;
}

/**
 * Works through the outbox (webhooks/outbox.ts): every due PENDING delivery, at most one per (receiver, ordering key)
 * at a time and in emission order, POSTed with the Standard Webhooks headers (`webhook-id` is the event's id, the same
 * on every
 * attempt, so receivers drop duplicates; `webhook-signature` is HMAC-SHA256 over `id.timestamp.body` with the
 * subscription's secret). A 2xx within the timeout delivers it; anything else is retried with exponential backoff
 * and jitter for 24 hours after the event, then given up, and the subscription is disabled with the reason. The state
 * lives in the warehouse, so a restart goes on where it stopped.
 */
export class WebhookDeliverer {
  private readonly now: () => number;
  private readonly loop: PassLoop;
  private readonly concurrency: number;

  constructor(
    private readonly wh: Warehouse,
    private readonly options: DelivererOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.concurrency = options.concurrency ?? 8;
    this.loop = new PassLoop(
      () => this.pass(),
      (message) => options.log?.(`webhook deliveries failed: ${message}`),
    );
  }

  start(): void {
    this.loop.start(this.options.intervalMs ?? 1_000);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /**
   * Attempts every delivery due now, in a pass that starts after the one running (so it sees what was committed
   * before the call); returns how many were attempted.
   */
  deliverDue(): Promise<number> {
    return this.loop.run();
  }

  private async pass(): Promise<number> {
    let attempted = 0;
    while (!this.loop.stopping) {
      const due = await this.due();
      if (due.length === 0) return attempted;
      // Each subscription's secret is read once a batch; the outcomes are written together after it.
      const secrets = new Map<string, Promise<string>>();
      const secret = (id: string) => secrets.get(id) ?? secrets.set(id, subscriptionSecret(this.wh, id)).get(id)!;
      const queue = [...due];
      const outcomes: Outcome[] = [];
      const worker = async () => {
        for (let d = queue.shift(); d; d = queue.shift()) outcomes.push(await this.attempt(d, secret));
      };
      await Promise.all(Array.from({ length: Math.min(this.concurrency, queue.length) }, worker));
      await this.record(outcomes);
      attempted += due.length;
    }
    return attempted; // stopping: the rest waits for the next start
  }

  /**
   * The deliveries due now, each claimed for this process: its next attempt moved past the time the batch may take
   * (every attempt timing out, `concurrency` at a time) and a minute, so another API replica working the same outbox
   * skips it; a process that dies mid-batch leaves its claims to run out and be tried again.
   */
  private async due(): Promise<DueDelivery[]> {
    const now = new Date(this.now());
    const candidates = await dueDeliveries(this.wh.db, now);
    if (candidates.length === 0) return [];
    const until = new Date(
      now.getTime() + Math.ceil(candidates.length / this.concurrency) * (this.options.timeoutMs ?? 10_000) + claimMs,
    );
    const ids = await claimDeliveries(
      this.wh.db,
      candidates.map((d) => d.id),
      now,
      until,
    );
    return candidates.filter((d) => ids.has(d.id));
  }

  /** One POST; the outcome to record (not yet written). */
  private async attempt(d: DueDelivery, secret: (subscriptionId: string) => Promise<string>): Promise<Outcome> {
    const at = new Date(this.now());
    let status: number | null = null;
    let error: string | null = null;
    try {
      const headers: Record<string, string> = {
        'webhook-id': d.event_id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      };
      if (d.subscription_id)
        headers['webhook-signature'] = new Webhook(await secret(d.subscription_id)).sign(d.event_id, at, d.body);
      status = await postWebhook(d.url, d.body, this.options.networks, {
        headers,
        timeoutMs: this.options.timeoutMs ?? 10_000,
      });
      if (status < 200 || status > 299)
        error = `answered ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`;
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    const attempts = d.attempts + 1;
    const next = at.getTime() + backoffMs(attempts);
    const gaveUp = error !== null && next - new Date(d.created_at).getTime() > retryWindowMs;
    return {
      delivery: d,
      row: {
        id: d.id,
        status: error === null ? 'DELIVERED' : gaveUp ? 'FAILED' : 'PENDING',
        attempts,
        last_attempt_at: at.toISOString(),
        last_status: status,
        last_error: error,
        next_attempt_at: new Date(error === null || gaveUp ? at.getTime() : next).toISOString(),
        delivered_at: error === null ? at.toISOString() : null,
      },
    };
  }

  /** Writes a batch's outcomes in one statement; a delivery given up disables its subscription. */
  private async record(outcomes: Outcome[]): Promise<void> {
    await recordDeliveryOutcomes(
      this.wh.db,
      outcomes.map((o) => o.row),
    );
    for (const o of outcomes)
      this.options.onAttempt?.({ status: o.row.status, at: o.row.last_attempt_at, createdAt: o.delivery.created_at });
    for (const o of outcomes.filter((o) => o.row.status === 'FAILED'))
      await this.giveUp(o.delivery, o.row.last_error!, new Date(o.row.last_attempt_at));
  }

  /**
   * After 24 hours: the delivery fails for good; its subscription is disabled with the reason, its other deliveries
   * fail too.
   */
  private async giveUp(d: DueDelivery, error: string, at: Date): Promise<void> {
    const reason = `deliveries to ${d.url} failed for 24 hours; the last attempt: ${error}`;
    this.options.log?.(`webhook ${d.subscription_id ?? d.url}: ${reason}`);
    if (!d.subscription_id) return;
    await this.wh.db.transaction().execute(async (trx) => {
      await disableSubscription(trx, d.subscription_id!, at, reason);
      await failPendingDeliveries(trx, d.subscription_id!);
    });
  }
}
