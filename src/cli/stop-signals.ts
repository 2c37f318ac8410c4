// How the long-running commands (`mktdata serve`, `mktdata worker`) meet the signals a supervisor sends
// (docs/operations.md, "Running as a service").

/** The signals of a long-running command, watched until `dispose`. */
export interface StopSignals {
  /** Resolves with the first SIGINT or SIGTERM. */
  stopped: Promise<NodeJS.Signals>;
  dispose(): void;
}

/** The line a SIGHUP gets: what it does not do, and what to do instead. */
export const sighupLine =
  'SIGHUP received: mktdata does not reload its configuration (mktdata.config, the environment, the pipelines); it keeps running as it is, and a restart applies changes';

/**
 * Watches SIGINT and SIGTERM (the stop) and SIGHUP. Node ends a process on SIGHUP by default, which would take a
 * service down on a `systemctl reload` or a closed terminal: here SIGHUP logs `sighupLine` and nothing else happens.
 */
export function watchSignals(log: (line: string) => void): StopSignals {
  let stop!: (signal: NodeJS.Signals) => void;
  const stopped = new Promise<NodeJS.Signals>((resolve) => (stop = resolve));
  const onHup = () => log(sighupLine);
  process.on('SIGHUP', onHup);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const dispose = () => {
    process.off('SIGHUP', onHup);
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  };
  return { stopped, dispose };
}

/** A step of a stop: what it waits for, and what becomes of that work when the grace period ends first. */
export interface StopStep {
  what: string;
  run: () => Promise<unknown>;
  /** Said when the grace period ends during this step. @default nothing more */
  late?: () => string;
}

/**
 * Runs the steps in order (each, even after one failed; the first failure is thrown at the end). When they have not all ended `graceMs` after the stop began, it says which step was still
 * waiting and what becomes of its work, and exits with code 1 (a stop that left work unfinished is no clean stop);
 * the warehouse, DuckDB's log and the leases make that as safe as a crash, and nothing unfinished is recorded as done.
 */
export async function stopWithin(
  graceMs: number,
  steps: StopStep[],
  exit: (code: number) => void = (code) => process.exit(code),
): Promise<void> {
  let current: StopStep | undefined;
  const timer = setTimeout(() => {
    const late = current?.late?.();
    // (console.error: a pipe's writes are synchronous, so the line is out before the exit.)
    console.error(
      `stopping: ${current?.what ?? 'the stop'} not done after the ${graceMs / 1000} s grace period (--grace-seconds): exiting now${late ? `; ${late}` : ''}`,
    );
    exit(1);
  }, graceMs);
  // A step that fails does not keep the later ones (closing the warehouse) from running; the first failure is thrown.
  const failures: unknown[] = [];
  try {
    for (const step of steps) {
      current = step;
      await step.run().catch((error: unknown) => failures.push(error));
    }
  } finally {
    clearTimeout(timer);
  }
  if (failures.length > 0) throw failures[0];
}
