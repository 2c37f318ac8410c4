// How `mktdata serve` and `mktdata worker` stop (src/cli/stop-signals.ts): the steps in order within the grace
// period, and, past it, one line saying what was left unfinished and exit code 1. The signals themselves are sent to
// a real server in test/api/health.e2e.test.ts.
import { describe, expect, it, vi } from 'vitest';
import { stopWithin } from '../../src/cli/stop-signals.ts';

describe('stopWithin', () => {
  it('runs every step, even after one fails, and throws the first failure', async () => {
    const ran: string[] = [];
    const exit = vi.fn();
    await expect(
      stopWithin(
        10_000,
        [
          { what: 'a', run: async () => void ran.push('a') },
          { what: 'b', run: () => Promise.reject(new Error('b failed')) },
          { what: 'c', run: async () => void ran.push('c') },
        ],
        exit,
      ),
    ).rejects.toThrow('b failed');
    expect(ran).toEqual(['a', 'c']);
    expect(exit).not.toHaveBeenCalled();
  });

  it('exits with 1 and says what was left when a stop outlasts its grace period', async () => {
    const lines: string[] = [];
    const error = vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(line));
    let exited: number | undefined;
    let ran = false;
    try {
      await new Promise<void>((done) => {
        void stopWithin(
          50,
          [
            { what: 'the quick step', run: async () => void (ran = true) },
            {
              what: 'the pipeline run in progress',
              run: () => new Promise(() => {}),
              late: () => 'it is recorded as such',
            },
          ],
          (code) => {
            exited = code;
            done();
          },
        );
      });
    } finally {
      error.mockRestore();
    }
    expect(ran).toBe(true);
    expect(exited).toBe(1);
    expect(lines).toEqual([
      'stopping: the pipeline run in progress not done after the 0.05 s grace period (--grace-seconds): exiting now; it is recorded as such',
    ]);
  });
});
