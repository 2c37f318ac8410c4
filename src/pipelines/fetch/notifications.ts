import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import type { Warehouse } from '../../db/warehouse.ts';
import { landFile, type LandResult } from '../../ingest/land-file.ts';
import { findSource } from '../../ingest/sources/index.ts';
import { findInPayload, marketplaceKeys, sellerKeyOf } from '../../ingest/sources/notifications/format.ts';
import type { JsonRecord } from '../../ingest/json-records.ts';
import type { NotificationQueueConfig } from '../../connectors/config.ts';
import { connectionsWithSellerId } from '../../control/connections/connections.ts';


/** What one poll did. */
export interface PollResult {
  received: number;
  landed: number;
  /** Messages whose seller no connection has, kept in quarantine/notifications-unrouted/. */
  unrouted: number;
}

/**
 * Lands the notifications waiting in the queue: long-polls it (ReceiveMessage, 20 s wait), lands each message as a
 * `notifications` file of the connection whose seller id (and marketplace, when the payload names one) it carries,
 * and deletes a message only once it is landed (or kept in quarantine): at least once, in any order, duplicates
 * dropped by notification id when events are derived.
 */
export class NotificationPoller {
  private readonly client: SQSClient;
  private readonly abort = new AbortController();
  private loop: Promise<void> | null = null;

  constructor(
    private readonly wh: Warehouse,
    private readonly config: NotificationQueueConfig,
    /** Runs landing work as the home's one writer (the pipeline scheduler's turn). */
    private readonly exclusive: <T>(work: () => Promise<T>) => Promise<T> = (work) => work(),
    private readonly log: (message: string) => void = console.error,
    /** Each batch file landed, kept or skipped (the server's metrics count the landed ones). */
    private readonly onLanded?: (result: LandResult & { source: string }) => void,
  ) {
    this.client = new SQSClient({
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      ...(config.credentials ? { credentials: config.credentials } : {}),
    });
  }

  /** Polls until `stop`, pausing after a failed poll. */
  start(): void {
    this.loop = (async () => {
      while (!this.abort.signal.aborted) {
        try {
          await this.pollOnce();
        } catch (error) {
          if (this.abort.signal.aborted) return;
          this.log(`notifications: polling ${this.config.queueUrl} failed: ${(error as Error).message}`);
          await new Promise((resolve) => {
            const timer = setTimeout(resolve, 10_000);
            this.abort.signal.addEventListener('abort', () => resolve(clearTimeout(timer)), { once: true });
          });
        }
      }
    })();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop?.catch(() => {});
    this.client.destroy();
  }

  /** One long poll: up to 10 messages, landed and deleted. */
  async pollOnce(waitSeconds = 20): Promise<PollResult> {
    const receive = new ReceiveMessageCommand({
      QueueUrl: this.config.queueUrl,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: waitSeconds,
      VisibilityTimeout: 300,
    });
    const answer = await this.client.send(receive, { abortSignal: this.abort.signal });
    const messages = answer.Messages ?? [];
    if (messages.length === 0) return { received: 0, landed: 0, unrouted: 0 };
    const done = await this.exclusive(() => this.land(messages));
    if (done.handled.length > 0) {
      await this.client.send(
        new DeleteMessageBatchCommand({
          QueueUrl: this.config.queueUrl,
          Entries: done.handled.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
        }),
      );
    }
    return { received: messages.length, landed: done.landed, unrouted: done.unrouted };
  }

  private async land(messages: Message[]): Promise<{ handled: Message[]; landed: number; unrouted: number }> {
    const connections = await connectionsWithSellerId(this.wh.db);
    const byConnection = new Map<string, { connection: (typeof connections)[number]; messages: Message[] }>();
    const handled: Message[] = [];
    let unrouted = 0;
    for (const message of messages) {
      let body: JsonRecord | null = null;
      try {
        body = JSON.parse(message.Body ?? '') as JsonRecord;
      } catch {
        // kept below as unrouted: not JSON
      }
      const payload = (body?.Payload ?? body?.payload ?? {}) as JsonRecord;
      const seller = body ? sellerKeyOf(payload) : null;
      const marketplace = body ? findInPayload(payload, marketplaceKeys) : null;
      const candidates = connections.filter((c) => c.seller_id === seller);
      const connection = candidates.find((c) => c.marketplace_id === marketplace) ?? candidates[0];
      if (!connection) {
        const dir = join(this.wh.home.quarantine, 'notifications-unrouted');
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, `${message.MessageId}.json`), message.Body ?? '');
        this.log(
          `notifications: message ${message.MessageId} ${body ? `names seller ${seller ?? '(none)'}, which no connection has` : 'is not JSON'}; kept in ${dir}`,
        );
        unrouted++;
        handled.push(message);
        continue;
      }
      const group = byConnection.get(connection.id) ?? { connection, messages: [] };
      group.messages.push(message);
      byConnection.set(connection.id, group);
    }
    let landed = 0;
    mkdirSync(this.wh.home.tmp, { recursive: true });
    for (const { connection, messages: batch } of byConnection.values()) {
      const file = join(this.wh.home.tmp, `notifications-${batch[0]!.MessageId}.json`);
      writeFileSync(file, `[${batch.map((m) => m.Body).join(',')}]`);
      try {
        const result = await landFile(
          this.wh,
          findSource('notifications'),
          { id: connection.id, marketplaceId: connection.marketplace_id },
          file,
        );
        this.onLanded?.({ ...result, source: 'notifications' });
        if (result.status === 'refused')
          this.log(
            `notifications: ${batch.length} message(s) for ${connection.id} refused (${result.reason}); kept in ${result.keptAt}`,
          );
        else landed += batch.length;
        handled.push(...batch);
      } finally {
        rmSync(file, { force: true });
      }
    }
    return { handled, landed, unrouted };
  }
}
