// What every benchmark reports to `npm run bench` (bench/run.ts), and where it logs its progress.

/** One line of the printed table. */
export interface Step {
  step: string;
  ms: number;
  /** rows processed by the step, for the rows/s column */
  rows: number;
}

/** What a benchmark reports: table lines and free-text summary lines (ratios, targets). */
export interface Report {
  steps: Step[];
  summary: string[];
}

export interface Benchmark {
  name: string;
  /** Runs only when named (`npm run bench -- scale`): it takes many minutes. */
  optIn?: boolean;
  run(workDir: string): Promise<Report>;
}

/** Progress lines, on stderr: stdout holds the table and the summary. */
export const log = (message: string) => process.stderr.write(`${message}\n`);
