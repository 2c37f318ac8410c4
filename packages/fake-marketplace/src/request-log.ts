/** One request the fake answered, in order of arrival; tests and benchmarks read it. */
export interface RequestLogEntry {
  /** When it arrived, on the fake's clock. */
  at: number;
  api: 'lwa' | 'consent' | 'sp' | 'ads' | 's3';
  operation: string;
  sellerId: string | null;
  status: number;
  /** The documented bucket of (seller, operation) had no token when it arrived. */
  overRate: boolean;
  /** What identifies the request: report type, window, report id, … */
  detail: Record<string, unknown>;
}
