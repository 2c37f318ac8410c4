/**
 * How many sandboxes run at once in a process: each may use its memory cap, so the process's memory for queries
 * stays under this many times the cap; more wait their turn.
 */
export const QUERY_SLOTS = 2;

let running = 0;
const waiting: (() => void)[] = [];

/** Runs `work` when one of QUERY_SLOTS is free, in the order the calls came. */
export async function withQuerySlot<T>(work: () => Promise<T>): Promise<T> {
  if (running < QUERY_SLOTS) running++;
  // The slot is handed over by the one that frees it: `running` stays counted, nobody overtakes.
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** Sandboxes running now and calls waiting for one (for tests and metrics). */
export const querySlots = () => ({ running, waiting: waiting.length });
