import { Rng } from './data/random.ts';

/** Faults and delays that can be switched on per operation, so that recovery is tested, not assumed. */
export interface OperationSwitch {
  /** Extra answer time, on the clock. */
  latencyMs: number;
  /** Share of requests answered 500/503. */
  serverErrorRate: number;
  /** Share of requests answered 429 whatever the bucket says. */
  throttleRate: number;
  /** createReport: share of reports that end FATAL. */
  fatalRate: number;
  /** A FATAL report has an error document. */
  fatalWithDocument: boolean;
  /** Ads createReport: share of reports that end FAILED. */
  failedRate: number;
  /** Reports never leave IN_QUEUE (SP) or PENDING (Ads). */
  stuck: boolean;
  /** 403 with empty details: a role the application lacks. */
  roleMissing: boolean;
  /** How long document links stay valid. */
  linkExpiryMs: number;
  /** FBA regeneration limits keyed on the report type alone (not type, marketplaces and window). */
  strictFbaLimits: boolean;
  /** Ads: a DAILY and a SUMMARY request of one type count as duplicates of each other. */
  twinDuplicates: boolean;
}

const defaults: OperationSwitch = {
  latencyMs: 0,
  serverErrorRate: 0,
  throttleRate: 0,
  fatalRate: 0,
  fatalWithDocument: false,
  failedRate: 0,
  stuck: false,
  roleMissing: false,
  linkExpiryMs: 0,
  strictFbaLimits: false,
  twinDuplicates: false,
};

/** The switches of every operation, and one seeded stream for their draws. */
export class Switches {
  readonly #byOperation = new Map<string, OperationSwitch>();
  readonly #rng: Rng;

  constructor(seed: number) {
    this.#rng = new Rng(seed);
  }

  get(operation: string): OperationSwitch {
    return this.#byOperation.get(operation) ?? defaults;
  }

  set(operation: string, change: Partial<OperationSwitch>): void {
    this.#byOperation.set(operation, { ...this.get(operation), ...change });
  }

  /** Whether a fault with this share happens now. */
  draw(share: number): boolean {
    return share > 0 && this.#rng.chance(share);
  }
}
