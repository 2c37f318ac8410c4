import { execFileSync } from 'node:child_process';

/**
 * Measures two sides `attempts` times, back to back, taking turns at going first so that neither always runs on the
 * colder cache; `each` sees every attempt's pair as it comes. Each side first runs once untimed (attempt 0): the
 * first attempt after the setup ran in its aftermath (the exports bench's first CSV export, which goes first, took
 * 1.4× its later ones with a third more CPU, in four runs out of four). Before each run, untimed, the disks are synced:
 * the setup's and the previous attempt's writes (hundreds of MB) are not flushed inside the next attempt's time.
 */
export async function takeTurns<T>(
  attempts: number,
  a: (attempt: number) => Promise<T>,
  b: (attempt: number) => Promise<T>,
  each: (attempt: number, a: T, b: T) => void,
): Promise<[T[], T[]]> {
  for (const side of [a, b]) {
    settle();
    await side(0);
  }
  const as: T[] = [];
  const bs: T[] = [];
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const sides = [a, b].map((side, n) => async () => {
      settle();
      (n === 0 ? as : bs).push(await side(attempt));
    });
    for (const side of attempt % 2 === 1 ? sides : sides.reverse()) await side();
    each(attempt, as.at(-1)!, bs.at(-1)!);
  }
  return [as, bs];
}

/**
 * The median of the attempts' ratios a[i] / b[i]. Each ratio compares two runs a few seconds apart, and the median
 * is not moved by one slow or lucky attempt on either side, as a ratio of the best times is: this machine's speed
 * drifts by more than the targets between minutes.
 */
export function medianRatio(a: number[], b: number[]): number {
  const ratios = a.map((x, i) => x / b[i]!).sort((x, y) => x - y);
  const middle = Math.floor(ratios.length / 2);
  return ratios.length % 2 === 1 ? ratios[middle]! : (ratios[middle - 1]! + ratios[middle]!) / 2;
}

/** Flushes every file system's dirty pages (`sync`), so that no earlier write is flushed during a timed run. */
export function settle(): void {
  execFileSync('sync');
}
