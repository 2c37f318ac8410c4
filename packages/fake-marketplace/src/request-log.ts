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
  /** The request and the answer as sent, when the fake records them (SP-API only). */
  exchange?: Exchange;
}

/** One SP-API request and its answer. */
export interface Exchange {
  method: string;
  /** The path under the region's host, as sent (percent-encoded). */
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  body: unknown;
  response: { status: number; headers: Record<string, string>; body: unknown };
}
