/**
 * Passes of a queue worker (the webhook deliverer, the action worker), one at a time: `run` asks for a pass that
 * starts after the one running, so that it sees what was committed before the call (callers until it starts share
 * it); `start` also runs one every `intervalMs` until `stop`, which waits for the pass in progress.
 */
export class PassLoop {
  private timer: NodeJS.Timeout | null = null;
  private next: Promise<number> | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  /** Set by `stop`: a pass that works in rounds ends after the round in progress. */
  stopping = false;

  constructor(
    private readonly pass: () => Promise<number>,
    private readonly log: (message: string) => void,
  ) {}

  run(): Promise<number> {
    if (this.next) return this.next;
    const next = this.chain.then(() => {
      this.next = null;
      return this.pass();
    });
    this.next = next;
    this.chain = next.catch(() => 0);
    return next;
  }

  start(intervalMs: number): void {
    const tick = async () => {
      await this.run().catch((error) => this.log(String(error)));
      if (this.timer) this.timer = setTimeout(tick, intervalMs).unref();
    };
    this.timer = setTimeout(tick, 0).unref();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.chain;
  }
}
