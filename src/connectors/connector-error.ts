/** What went wrong talking to the marketplace, in terms the CLI can explain (never a token, secret or signed URL). */
export type ConnectorErrorKind =
  | 'invalid-grant'
  | 'invalid-client'
  | 'access-denied'
  | 'throttled'
  | 'server'
  | 'invalid-input'
  | 'not-found'
  | 'network'
  | 'link-expired'
  | 'duplicate';

/** An upstream failure with its kind, HTTP status, upstream code and details, and the operation that met it. */
export class ConnectorError extends Error {
  readonly kind: ConnectorErrorKind;
  readonly status: number | null;
  readonly code: string | null;
  readonly details: string | null;
  readonly operation: string;
  readonly requestId: string | null;

  constructor(
    kind: ConnectorErrorKind,
    message: string,
    info: {
      status?: number | null;
      code?: string | null;
      details?: string | null;
      operation: string;
      requestId?: string | null;
      cause?: unknown;
    },
  ) {
    super(`${info.operation}: ${message}`, info.cause === undefined ? undefined : { cause: info.cause });
    this.name = 'ConnectorError';
    this.kind = kind;
    this.status = info.status ?? null;
    this.code = info.code ?? null;
    this.details = info.details ?? null;
    this.operation = info.operation;
    this.requestId = info.requestId ?? null;
  }
}

/** Whether an error is worth another attempt: throttling, the server's own failures, the network. */
export const isRetryable = (error: unknown): boolean =>
  error instanceof ConnectorError &&
  (error.kind === 'throttled' || error.kind === 'server' || error.kind === 'network');

/** A URL without its query (a pre-signed link's signature stays out of messages and logs). */
export const withoutQuery = (url: string): string => url.split('?')[0]!;
