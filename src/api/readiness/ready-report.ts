// What `/ready` answers (docs/operations.md, "Health and readiness"): the named checks of this process, each passing
// or failing with why, run together and bounded in time so that a supervisor polling every few seconds always gets
// an answer.

/** What one check found: passing (`ok`, or `off` for one that does not apply here) or failing, with why. */
export interface CheckOutcome {
  ok: boolean;
  text: string;
}

/** A named check of `/ready`: it answers within the report's time limit, or counts as failing. */
export type ReadyCheck = () => Promise<CheckOutcome>;

/** A passing outcome: `ok`, or a text that starts with `ok` or is `off`. */
export const passing = (text = 'ok'): CheckOutcome => ({ ok: true, text });

/** A failing outcome, saying why in words an operator can act on (no secret, no path outside the home). */
export const failing = (text: string): CheckOutcome => ({ ok: false, text });

/** The body of `/ready`: 200 with `ready`, 503 with `unavailable` and the names of the failing checks. */
export interface ReadyReport {
  status: 'ready' | 'unavailable';
  failing: string[];
  checks: Record<string, string>;
}

/** How the checks are run. */
export interface ReadinessOptions {
  /** A check still running after this many ms fails with "did not answer within …". @default 2000 */
  timeoutMs?: number;
  /**
   * A report is reused for this many ms: the route takes no key and no rate limit, so callers polling it in a loop
   * cost at most one round of checks per period. @default 1000
   */
  cacheMs?: number;
}

/** The first line of an error, shortened, with the home's path left out. */
export function reasonOf(error: unknown, root?: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  // A system error (ECONNREFUSED, ENOTFOUND …) names the address it tried; its code says enough.
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  let text = String((error as Error | undefined)?.message ?? error).split('\n')[0]!;
  if (root) text = text.split(`${root}/`).join('').split(root).join('the home');
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** Runs one check, turning an error or a hang into a failing outcome. */
async function bounded(check: ReadyCheck, timeoutMs: number, root?: string): Promise<CheckOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<CheckOutcome>((resolve) => {
    timer = setTimeout(() => resolve(failing(`did not answer within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    return await Promise.race([check().catch((error: unknown) => failing(reasonOf(error, root))), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The `/ready` answer of a process: every check run together, each bounded by `timeoutMs`; a report is reused for
 * `cacheMs` and callers arriving while one is made share it. `root` is left out of the texts of errors.
 */
export function readiness(
  checks: Record<string, ReadyCheck>,
  options: ReadinessOptions & { root?: string } = {},
): () => Promise<ReadyReport> {
  const { timeoutMs = 2000, cacheMs = 1000, root } = options;
  // The latest report, and when it was made (undefined while it is being made: callers then share it).
  let latest: { doneAt?: number; report: Promise<ReadyReport> } | undefined;
  const make = async (): Promise<ReadyReport> => {
    const names = Object.keys(checks);
    const outcomes = await Promise.all(names.map((name) => bounded(checks[name]!, timeoutMs, root)));
    const failed = names.filter((_, i) => !outcomes[i]!.ok);
    return {
      status: failed.length === 0 ? 'ready' : 'unavailable',
      failing: failed,
      checks: Object.fromEntries(names.map((name, i) => [name, outcomes[i]!.text])),
    };
  };
  return () => {
    const stale = latest?.doneAt !== undefined && Date.now() - latest.doneAt >= cacheMs;
    if (!latest || stale) {
      const entry: { doneAt?: number; report: Promise<ReadyReport> } = { report: make() };
      void entry.report.then(() => (entry.doneAt = Date.now()));
      latest = entry;
    }
    return latest.report;
  };
}

/** A check of a loop this process keeps running (the scheduler, a worker's shard loop): `state` says why it is not. */
export function loopCheck(state: () => string | null): ReadyCheck {
  return async () => {
    const why = state();
    return why === null ? passing() : failing(why);
  };
}
