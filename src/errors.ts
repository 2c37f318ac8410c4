/** One registry of every error mktdata raises: code, HTTP status and message template. */
export const errorRegistry = {
  ERR_HOME_NOT_INITIALIZED: {
    status: 500,
    message: 'home {home} is not initialized: run `mktdata init --home {home}` first',
  },
  ERR_HOME_LOCKED: {
    status: 503,
    message:
      'home {home} is being written by another process ({holder}): one writer at a time; a command run beside `mktdata serve` is handed to it, any other waits for the writer to finish',
  },
  ERR_HOME_NEWER: {
    status: 500,
    message:
      'this home ({where}) was last opened by mktdata {theirs}; this is mktdata {ours} ({why}): install mktdata {theirs} or newer to open it, or restore a backup made before the upgrade',
  },
  ERR_PUBLISH_DISK_FULL: {
    status: 507,
    message:
      'publishing stopped, the disk of {dir} is full ({reason}); the previous snapshot (published {previous}) is still the one served; free some space and run again to publish',
  },
  ERR_NOT_PUBLISHED: { status: 404, message: 'nothing is published in {home} yet: run `mktdata build` first' },
  ERR_ORG_NOT_FOUND: { status: 404, message: 'organization {id} not found' },
  ERR_CONNECTION_NOT_FOUND: { status: 404, message: 'connection {id} not found' },
  ERR_CONNECTION_TYPE: {
    status: 400,
    message: 'seller or vendor {id} is a {type} connection; {what} are kept for {needed} connections only',
  },
  ERR_MARKETPLACE_UNKNOWN: {
    status: 400,
    message: 'unknown marketplace id {id}; known ids are in models/seeds/marketplaces.csv',
  },
  ERR_SOURCE_UNKNOWN: { status: 400, message: 'unknown source {name}; known sources: {known}' },
  ERR_INGEST_FILE_REFUSED: { status: 400, message: '{file}: line {line}: {reason}' },
  ERR_TABLE_UNKNOWN: { status: 404, message: 'unknown table {name}; published tables: {known}' },
  ERR_MODEL_UNKNOWN: { status: 400, message: 'unknown model {name}' },
  ERR_INPUT_INVALID: { status: 400, message: '{where}: {reason}' },
  ERR_BUILD_FAILED: { status: 500, message: '{count} model(s) failed: {names}' },
  ERR_RUN_FAILED: {
    status: 500,
    message:
      '{count} pipeline run(s) failed or partial (a window not built, or its data not fetched): see `mktdata runs`; the next run retries what is missing',
  },
  ERR_SHARDS_UNFINISHED: {
    status: 500,
    message:
      '{count} shard run(s) did not finish within {seconds} s ({shards}): is a `mktdata worker` running on this control plane?',
  },
  ERR_RUNS_ELSEWHERE: {
    status: 409,
    message:
      'pipeline runs start where the pipelines run: `mktdata serve` on the home (or the workers of a scaled-out install, with `mktdata run`)',
  },
  ERR_SERVER_STOPPED: {
    status: 503,
    message:
      'the server holding {home} stopped before the command finished, so it did not complete (a pipeline run it started is recorded failed, interrupted, when the server starts again): run it again then',
  },
  ERR_PORT_IN_USE: {
    status: 500,
    message:
      'port {port} on {host} is in use (another `mktdata serve`, or another program): choose another with --port',
  },
  ERR_INGEST_FAILED: {
    status: 400,
    message: '{count} file(s) or folder(s) not landed (refused files are kept in quarantine; see the lines above)',
  },
  ERR_AUTH_MISSING_KEY: { status: 401, message: 'the service-api-key header is missing' },
  ERR_AUTH_INVALID_KEY: { status: 401, message: 'the service-api-key is not a valid API key' },
  ERR_RATE_LIMITED: {
    status: 429,
    message: 'more than {perSecond} requests per second for this organization; retry after {retryAfter} s',
  },
  ERR_ROUTE_NOT_FOUND: { status: 404, message: 'no endpoint {method} {path}' },
  ERR_MCP_NO_SESSION: {
    status: 405,
    message: '/mcp keeps no session: POST each JSON-RPC message (there is no stream to GET or session to DELETE)',
  },
  ERR_METRICS_UNAUTHORIZED: {
    status: 401,
    message: '/metrics needs the header `Authorization: Bearer <MKTDATA_METRICS_TOKEN>`',
  },
  ERR_METRICS_LOOPBACK_ONLY: {
    status: 403,
    message:
      '/metrics answers loopback addresses only; to let Prometheus scrape it from {address}, set MKTDATA_METRICS_TOKEN on the server and send it as a bearer token',
  },
  ERR_REQUEST_INVALID: { status: 400, message: 'the request is invalid: {summary}' },
  ERR_SOURCE_NOT_FOUND: {
    status: 404,
    message:
      'unknown source {source}: give a source id, its first 10 hex characters or a table name from GET /api/v1/exports/sources',
  },
  ERR_SOURCE_NOT_AVAILABLE: {
    status: 400,
    message: '{table} is a {type} table and has no data for {id}, a {connectionType} connection',
  },
  ERR_SOURCE_DISABLED: {
    status: 400,
    message:
      '{table} is disabled for this organization; enable it with `mktdata sources enable --org {org} --table {table}`',
  },
  ERR_INITIAL_LOAD_IN_PROGRESS: {
    status: 400,
    message:
      'seller or vendor {id} has not finished the first stage of its initial load: land its reports and run `mktdata build` first',
  },
  ERR_EXPORT_NOT_FOUND: { status: 404, message: 'export {id} not found' },
  ERR_EXPORT_FILE_GONE: {
    status: 410,
    message: 'the file of export {id} has expired or is missing; do not poll, create a new export',
  },
  ERR_EXPORT_FAILED: { status: 422, message: 'export {id} ended {status}: {reason}; do not poll, create a new export' },
  ERR_EXPORT_SIGNATURE_INVALID: {
    status: 403,
    message: 'this download link is invalid or has expired; ask GET /api/v1/exports/{id}/raw for a new one',
  },
  ERR_SCHEDULE_NOT_FOUND: { status: 404, message: 'export schedule {id} not found' },
  ERR_FILE_NOT_FOUND: { status: 404, message: 'data file {id} not found' },
  ERR_FILE_TYPE_MISMATCH: {
    status: 400,
    message:
      '{where}: the content is {found}, not the declared type {type} (checked by its first bytes); nothing was stored',
  },
  ERR_FILE_NOT_WAITING: {
    status: 409,
    message: 'data file {id} is {status}, not WAITING_FOR_UPLOAD: its upload link takes one upload only',
  },
  ERR_FILE_NOT_DOWNLOADABLE: {
    status: 404,
    message: 'data file {id} is {status}: only an UPLOADED file can be downloaded',
  },
  ERR_FILE_SIGNATURE_INVALID: {
    status: 403,
    message:
      'this link of data file {id} is invalid or has expired; ask GET /api/v1/files/{id}/download for a new download link, or create the file again to upload',
  },
  ERR_WEBHOOK_NOT_FOUND: { status: 404, message: 'webhook subscription {id} not found' },
  ERR_SQP_ASIN_INVALID: {
    status: 400,
    message: 'Each ASIN must be 10 characters long and contain only letters and numbers.',
  },
  ERR_SQP_LIST_LOCKED: {
    status: 409,
    message: 'the SQP ASIN list of {id} was changed less than 72 hours ago and is locked until {editableAt}',
  },
  ERR_ACTIONS_NOT_ENABLED: { status: 501, message: 'actions are a private beta this organization has no access to' },
  ERR_ACTION_NOT_FOUND: { status: 404, message: 'action {id} not found' },
  ERR_ACTION_TYPE_UNSUPPORTED: {
    status: 400,
    message: 'action type {type} is refused: {reason}; GET /api/v1/actions/types lists the types this server runs',
  },
  ERR_ACTION_ACCOUNT: { status: 400, message: '{type} runs for {needed} accounts; {id} is a {kinds} account' },
  ERR_ACTION_TYPE_DISABLED: {
    status: 412,
    message:
      'action type {type} is not enabled for this organization; an administrator enables it with `mktdata actions enable --org {org} --type {type}`',
  },
  ERR_ACTION_ACCESS_LEVEL: {
    status: 412,
    message:
      'seller or vendor {id} granted read access only; live actions need the access level Read and write (`mktdata connections access --connection {id} --level READ_AND_WRITE`)',
  },
  ERR_LIVE_ACTION_LIMIT: {
    status: 429,
    message:
      'this organization already has {limit} live actions (pending, in progress or waiting for the marketplace); combine operations into one action request, or wait for one to finish',
  },
  ERR_NO_TOKENS: {
    status: 402,
    message:
      'organization {org} has no tokens left; the operator adds some with `mktdata org tokens --org {org} --add N`',
  },
  ERR_QUERY_REFUSED: {
    status: 400,
    message: "the query is refused: {reason}; send one read-only SELECT over your organization's catalog tables",
  },
  ERR_QUERY_INVALID: {
    status: 400,
    message: "the query does not run: {reason}; correct it (the catalog describes each table's columns and types)",
  },
  ERR_QUERY_TIMEOUT: {
    status: 422,
    message:
      'the query was stopped after {seconds} s, its time cap: narrow the period or the connections, aggregate, or add a LIMIT',
  },
  ERR_QUERY_MEMORY: {
    status: 422,
    message:
      'the query was stopped at its memory cap ({limit}): {reason}; narrow the period, aggregate before joining, or add a LIMIT',
  },
  ERR_SECRET_UNREADABLE: { status: 500, message: 'cannot decrypt the stored secret of {context}: {reason}' },
  ERR_CONNECTOR_CONFIG: {
    status: 400,
    message: '{what} is not configured: set {env} or add it to {file} (see docs/connectors.md, "Your applications")',
  },
  ERR_CREDENTIALS_MISSING: {
    status: 400,
    message:
      'connection {id} has no {api} credentials: connect it through an invitation link or `mktdata connections credentials --connection {id}`',
  },
  ERR_CONNECTION_TEST_FAILED: { status: 400, message: '{api} for connection {id}: {reason}' },
  ERR_BACKUP_SCALED_OUT: {
    status: 400,
    message:
      '`mktdata {command}` works on a single home; a scaled-out install (MKTDATA_DATABASE_URL) is backed up with pg_dump and a copy of the shared folder, see docs/operations.md, "Backups"',
  },
  ERR_BACKUP_TARGET: { status: 400, message: 'cannot back up into {dir}: {reason}' },
  ERR_BACKUP_UNSTABLE: {
    status: 500,
    message:
      'the warehouse {file} was rewritten by a checkpoint while it was copied, {tries} times in a row; nothing was kept: run the backup again',
  },
  ERR_BACKUP_REFUSED: {
    status: 400,
    message: 'the backup {dir} is refused: {file}: {reason}; the home {home} was not touched',
  },
  ERR_RESTORE_HOME_NOT_EMPTY: {
    status: 409,
    message:
      'the home {home} is not empty: restore into a new or empty folder (--home), or add --force to replace everything in it with the backup',
  },
  ERR_RESTORE_HOME_IN_USE: {
    status: 409,
    message:
      'the home {home} is open in {holder}: a restore replaces the whole home under it; restore into another folder (--home) and start the server there, or restore here once that process has exited',
  },
  ERR_DOCTOR_FAILED: {
    status: 500,
    message: '{count} of {total} checks failed: see the ✗ lines (each says what to do)',
  },
  ERR_INTERNAL: { status: 500, message: 'internal error; quote the request id {requestId} when reporting it' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorRegistry;

/** An expected failure with a registered code; its message is safe to show to the user. */
export class MktdataError extends Error {
  readonly status: number;
  /** Fields the HTTP error body carries besides the usual ones (a 409's `editableAt`). */
  readonly body?: Record<string, unknown>;

  constructor(
    readonly code: ErrorCode,
    readonly params: Record<string, string | number> = {},
    options?: { cause?: unknown; body?: Record<string, unknown> },
  ) {
    const { status, message } = errorRegistry[code];
    super(
      message.replace(/\{(\w+)\}/g, (_, key: string) => String(params[key] ?? `{${key}}`)),
      options,
    );
    this.name = 'MktdataError';
    this.status = status;
    this.body = options?.body;
  }
}
