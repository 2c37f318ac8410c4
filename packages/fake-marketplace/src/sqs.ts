import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** A message in the queue: visible again after its visibility timeout unless deleted. */
interface QueuedMessage {
  id: string;
  body: string;
  visibleAt: number;
  receipt: string | null;
  received: number;
}

/**
 * The SQS standard queue the marketplace publishes notifications to (docs/design/live-apis.md §5 and §8
 * "Notifications"): the subset of the SQS JSON protocol an AWS SDK client calls (ReceiveMessage with a long-poll wait,
 * DeleteMessage,
 * DeleteMessageBatch, ChangeMessageVisibility), at least once, sometimes twice, not in order. Real time, not the
 * fake's clock: visibility timeouts and waits are the receiver's own.
 */
export class NotificationQueue {
  private readonly messages: QueuedMessage[] = [];
  private waiters: (() => void)[] = [];
  /** Messages published so far, for tests. */
  published = 0;

  constructor(
    /** A share of messages published twice (SQS is at least once). */
    private readonly duplicateShare = 0,
    private readonly random: () => number = Math.random,
  ) {}

  /** Publishes a notification (its JSON text, in the casing of its type). */
  publish(notification: object): void {
    const copies = this.random() < this.duplicateShare ? 2 : 1;
    for (let i = 0; i < copies; i++)
      this.messages.push({
        id: randomUUID(),
        body: JSON.stringify(notification),
        visibleAt: 0,
        receipt: null,
        received: 0,
      });
    this.published++;
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Messages not yet deleted. */
  get depth(): number {
    return this.messages.length;
  }

  private receive(max: number, visibilitySeconds: number) {
    const now = Date.now();
    const visible = this.messages.filter((m) => m.visibleAt <= now);
    // Not in order: a standard queue gives no ordering.
    visible.sort(() => this.random() - 0.5);
    return visible.slice(0, max).map((m) => {
      m.receipt = `${m.id}#${randomUUID()}`;
      m.visibleAt = now + visibilitySeconds * 1000;
      m.received++;
      return {
        MessageId: m.id,
        ReceiptHandle: m.receipt,
        MD5OfBody: createHash('md5').update(m.body).digest('hex'),
        Body: m.body,
        Attributes: { ApproximateReceiveCount: String(m.received) },
      };
    });
  }

  private remove(receipt: string): boolean {
    const index = this.messages.findIndex((m) => m.receipt === receipt);
    if (index >= 0) this.messages.splice(index, 1);
    return index >= 0;
  }

  /** POST /sqs/: the JSON protocol (`x-amz-target: AmazonSQS.<Operation>`). */
  routes(app: FastifyInstance): void {
    app.addContentTypeParser('application/x-amz-json-1.0', { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, JSON.parse(String(body)));
      } catch (error) {
        done(error as Error, undefined);
      }
    });
    const answer = (reply: FastifyReply, status: number, body: object) =>
      reply
        .code(status)
        .header('content-type', 'application/x-amz-json-1.0')
        .header('x-amzn-requestid', randomUUID())
        .send(JSON.stringify(body));
    // The SDK posts to its endpoint's path with a trailing slash.
    app.post('/sqs/', async (request, reply) => {
      const target = String(request.headers['x-amz-target'] ?? '').replace(/^AmazonSQS\./, '');
      const input = (request.body ?? {}) as Record<string, unknown>;
      if (!request.headers.authorization?.startsWith('AWS4-HMAC-SHA256'))
        return answer(reply, 400, {
          __type: 'com.amazonaws.sqs#MissingAuthenticationToken',
          message: 'Request is missing Authentication Token',
        });
      if (target === 'ReceiveMessage') {
        const max = Math.min(Number(input.MaxNumberOfMessages ?? 1), 10);
        const waitMs = Math.min(Number(input.WaitTimeSeconds ?? 0), 20) * 1000;
        const visibility = Number(input.VisibilityTimeout ?? 30);
        const until = Date.now() + waitMs;
        let messages = this.receive(max, visibility);
        while (messages.length === 0 && Date.now() < until) {
          await new Promise<void>((wake) => {
            const timer = setTimeout(wake, Math.min(until - Date.now(), 1000));
            this.waiters.push(() => (clearTimeout(timer), wake()));
          });
          messages = this.receive(max, visibility);
        }
        return answer(reply, 200, messages.length > 0 ? { Messages: messages } : {});
      }
      if (target === 'DeleteMessage') {
        this.remove(String(input.ReceiptHandle));
        return answer(reply, 200, {});
      }
      if (target === 'DeleteMessageBatch') {
        const entries = (input.Entries ?? []) as { Id: string; ReceiptHandle: string }[];
        const done = entries.filter((e) => this.remove(e.ReceiptHandle));
        const failed = entries
          .filter((e) => !done.includes(e))
          .map((e) => ({
            Id: e.Id,
            SenderFault: true,
            Code: 'ReceiptHandleIsInvalid',
            Message: 'The receipt handle is not valid',
          }));
        return answer(reply, 200, { Successful: done.map((e) => ({ Id: e.Id })), Failed: failed });
      }
      if (target === 'ChangeMessageVisibility') {
        const message = this.messages.find((m) => m.receipt === input.ReceiptHandle);
        if (message) message.visibleAt = Date.now() + Number(input.VisibilityTimeout ?? 0) * 1000;
        return answer(reply, 200, {});
      }
      return answer(reply, 400, {
        __type: 'com.amazonaws.sqs#InvalidAction',
        message: `The action ${target} is not valid for this endpoint.`,
      });
    });
  }
}
