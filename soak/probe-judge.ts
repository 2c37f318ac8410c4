// How a probe of `npm run soak -- probes` is sent and judged: raw requests through node:http, and what an answer
// must not hold (another organization's data, internals, SQL errors) or must be (the error body of docs/design/API.md).
import { createHash } from 'node:crypto';
import { STATUS_CODES, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { resolve } from 'node:path';

export interface ProbesReport {
  probes: number;
  passed: number;
  failures: string[];
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Req {
  method?: Method;
  /** The raw path and query, sent as written. */
  path: string;
  key?: string;
  /** A JSON body (serialized here, sent as application/json). */
  json?: unknown;
  /** A body sent as given. */
  body?: string | Buffer;
  contentType?: string;
  /** Sent without content-length, in 1 MB chunks. */
  chunked?: boolean;
  /**
   * Headers first, then the body only when no answer came within this many ms (a client that waits for an early
   * answer).
   */
  hold?: number;
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: unknown;
}

export interface Expect {
  /** Statuses that pass. */
  status: number[];
  /** On a 4xx, its message or issues must name this field. */
  names?: string;
  /** Texts the answer must not contain (besides the secrets every answer must not contain). */
  secrets?: string[];
  /** Texts the request itself gave, which an error message may echo. */
  echoes?: string[];
  /** A 4xx that is not the JSON error body by design (Markdown pages, HTML pages). */
  noShape?: boolean;
  /** Further checks; a reason when it fails. */
  check?: (answer: Answer) => string | undefined;
}

export const API = '/api/v1';
export const s4xx = [400, 401, 402, 403, 404, 405, 406, 409, 410, 411, 413, 414, 415, 422, 431];
/** What no answer may show: a stack trace, where the project lives, SQL error texts. */
export const internals = [
  '    at ',
  '/work/',
  resolve('.'),
  'node_modules',
  'Binder Error',
  'Parser Error',
  'Catalog Error',
  'Conversion Error',
  'Invalid Input Error',
  'Constraint Error',
  'IO Error',
  'INTERNAL Error',
];
/** Contents of files that a traversal would read. */
export const fileContents = ['"devDependencies"', 'root:x:0:0', 'DUCK'];
export const PAYLOADS = [
  `x' OR 1=1 --`,
  `"; DROP TABLE control.exports; --`,
  `') UNION SELECT * FROM control.api_keys --`,
  'mkt_cogs; select 1',
  '1)::int--',
];
export const TABLE = 'mkt_order_items_with_cogs';
export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
export const short = (text: string, n: number) =>
  text.length > n ? `${text.slice(0, n)}…(${text.length} chars)` : text;
export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/**
 * The reason phrase an error body's `error` carries (docs/design/API.md: "Not Found" with 404); RFC 9110's newer names
 * too.
 */
export const phrases = (status: number) =>
  [STATUS_CODES[status], { 413: 'Content Too Large', 422: 'Unprocessable Content' }[status]].filter(Boolean);

/** One request on its own connection; the answer read whole. */
export function send(origin: string, req: Req): Promise<Answer> {
  const body = req.json !== undefined ? JSON.stringify(req.json) : req.body;
  const headers: Record<string, string> = {};
  if (req.key) headers['service-api-key'] = req.key;
  const contentType = req.contentType ?? (req.json !== undefined ? 'application/json' : undefined);
  if (contentType) headers['content-type'] = contentType;
  if (body !== undefined && !req.chunked) headers['content-length'] = String(Buffer.byteLength(body));
  const url = new URL(origin);
  return new Promise<Answer>((done, fail) => {
    let answered = false;
    const request = httpRequest(
      { host: url.hostname, port: url.port, path: req.path, method: req.method ?? 'GET', headers, agent: false },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', fail);
        res.on('end', () => {
          if (req.hold) request.destroy();
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          if (/json/.test(String(res.headers['content-type'] ?? ''))) {
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
          }
          done({ status: res.statusCode!, headers: res.headers, text, json });
        });
      },
    );
    // The server may answer (413) and close before it has read the whole body: the answer counts, not the write.
    request.on('error', (error) => {
      if (!answered) fail(error);
    });
    request.setTimeout(30_000, () => request.destroy(new Error('no answer within 30 s')));
    if (body === undefined) request.end();
    else if (req.hold) {
      request.flushHeaders();
      setTimeout(() => {
        if (!answered) request.end(body);
      }, req.hold);
    } else if (!req.chunked) request.end(body);
    else {
      const bytes = Buffer.from(body);
      for (let at = 0; at < bytes.length; at += 1 << 20) request.write(bytes.subarray(at, at + (1 << 20)));
      request.end();
    }
  });
}

/** Every string of a JSON value with the key it sits under. */
export function strings(
  value: unknown,
  key = '',
  out: { key: string; text: string }[] = [],
): { key: string; text: string }[] {
  if (typeof value === 'string') out.push({ key, text: value });
  else if (Array.isArray(value)) for (const v of value) strings(v, key, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push({ key: '', text: k });
      strings(v, k, out);
    }
  }
  return out;
}

export const without = (text: string, echoes: string[]) =>
  echoes.filter((e) => e.length > 0).reduce((t, e) => t.split(e).join(''), text);

/** An error body's `error` when it is not its status's reason phrase. */
export function wrongPhrase(req: Req, answer: Answer, expect: Expect): string | undefined {
  const body = answer.json as { error?: unknown } | undefined;
  if (
    answer.status < 400 ||
    answer.status >= 500 ||
    !req.path.startsWith(`${API}/`) ||
    expect.noShape ||
    typeof body?.error !== 'string'
  )
    return undefined;
  return phrases(answer.status).includes(body.error) ? undefined : body.error;
}

/** Why an answer fails its expectation; empty when it passes. */
export function judge(req: Req, answer: Answer, expect: Expect, alwaysSecret: string[]): string[] {
  const reasons: string[] = [];
  const { status } = answer;
  if (status >= 500) reasons.push('5xx');
  else if (!expect.status.includes(status)) reasons.push(`expected ${expect.status.join('|')}`);
  const echoes = expect.echoes ?? [];
  const headerText = Object.entries(answer.headers)
    .filter(([name]) => name !== 'service-api-request-id')
    .map(([, v]) => String(v))
    .join('\n');
  const parts = answer.json !== undefined ? strings(answer.json) : [{ key: '', text: answer.text }];
  // Internals: nowhere, but in what the request itself sent and the answer echoes.
  for (const bad of internals) {
    if (parts.some((p) => without(p.text, echoes).includes(bad)) || without(headerText, echoes).includes(bad))
      reasons.push(`shows ${JSON.stringify(bad.trim())}`);
  }
  // Secrets: only an error message may echo what the request gave.
  for (const secret of [...alwaysSecret, ...(expect.secrets ?? [])]) {
    if (!secret) continue;
    const leaked =
      parts.some((p) => (p.key === 'message' ? without(p.text, echoes) : p.text).includes(secret)) ||
      headerText.includes(secret);
    if (leaked) reasons.push(`leaks ${JSON.stringify(short(secret, 40))}`);
  }
  if (status >= 400 && status < 500 && req.path.startsWith(`${API}/`) && !expect.noShape) {
    const body = answer.json as Record<string, unknown> | undefined;
    const shaped =
      body &&
      typeof body === 'object' &&
      body.statusCode === status &&
      typeof body.error === 'string' &&
      typeof body.code === 'string' &&
      typeof body.message === 'string' &&
      typeof body.requestId === 'string' &&
      body.requestId !== '';
    if (!shaped) reasons.push('not the JSON error body {statusCode, error, code, message, requestId}');
  }
  if (expect.names && status >= 400 && status < 500) {
    const body = answer.json as { message?: string; issues?: unknown } | undefined;
    if (!`${body?.message ?? ''} ${JSON.stringify(body?.issues ?? [])}`.includes(expect.names))
      reasons.push(`does not name ${expect.names}`);
  }
  if (reasons.length === 0 && expect.check) {
    const reason = expect.check(answer);
    if (reason) reasons.push(reason);
  }
  return reasons;
}
