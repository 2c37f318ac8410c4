import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { MktdataError, errorRegistry, type ErrorCode } from '../errors.ts';

/** Reason phrases of the statuses the API answers, for the error body's `error`. */
const reasons: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
  507: 'Insufficient Storage',
};

/**
 * One error body for every failure (docs/design/API.md): a registered code, a safe message, the request id; never
 * internals.
 */
export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const { status, body } = errorReply(error, request.id, (err) => request.log.error({ err }, 'unhandled error'));
  return reply.status(status).type('application/json').send(body);
}

/** The status and body of a failure, as `sendError` answers them (the MCP tools answer the same body). */
export function errorReply(
  error: unknown,
  requestId: string,
  logUnhandled: (error: unknown) => void,
): { status: number; body: Record<string, unknown> } {
  let code: ErrorCode;
  let message: string;
  let status: number;
  let issues: { path: (string | number)[]; code: string; message: string }[] | undefined;
  let extra: Record<string, unknown> | undefined;
  if (error instanceof MktdataError) {
    ({ code, message, status, body: extra } = error);
    if (code === 'ERR_INPUT_INVALID') {
      const path = String(error.params.where)
        .split('.')
        .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
      issues = [{ path: ['body', ...path], code: 'invalid', message: String(error.params.reason) }];
    }
  } else if (hasZodFastifySchemaValidationErrors(error)) {
    issues = error.validation.map((v) => ({
      path: [error.validationContext ?? 'request', ...v.instancePath.split('/').filter(Boolean)],
      code: String(
        v.params?.issue && typeof v.params.issue === 'object' && 'code' in v.params.issue
          ? v.params.issue.code
          : v.keyword,
      ),
      message: v.message ?? 'invalid',
    }));
    const summary = issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    ({ status } = errorRegistry.ERR_REQUEST_INVALID);
    code = 'ERR_REQUEST_INVALID';
    message = new MktdataError(code, { summary }).message;
  } else if (isClientError(error)) {
    status = error.statusCode!;
    code = 'ERR_REQUEST_INVALID';
    message = new MktdataError(code, { summary: error.message }).message;
  } else {
    logUnhandled(error);
    code = 'ERR_INTERNAL';
    status = 500;
    message = new MktdataError(code, { requestId }).message;
  }
  return {
    status,
    body: {
      statusCode: status,
      error: reasons[status] ?? 'Error',
      code,
      message,
      requestId,
      ...(issues ? { issues } : {}),
      ...extra,
    },
  };
}

/** What a client may send of a body refused as too large before it is cut off. */
const DRAIN_BYTES = 64 << 20;
const DRAIN_MS = 10_000;

/**
 * Reads and discards a body refused as too large (up to 64 MB or 10 s): closing the connection with the body still
 * arriving makes the kernel reset it, and the client then never reads the 413.
 */
export async function drainBody(request: FastifyRequest): Promise<void> {
  const raw = request.raw;
  if (raw.readableEnded || raw.destroyed) return;
  await new Promise<void>((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      raw.off('data', onData);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_BYTES) done();
    };
    const timer = setTimeout(done, DRAIN_MS);
    raw.on('data', onData).once('end', done).once('error', done).once('close', done);
    raw.resume();
  });
}

/** Fastify's own 4xx errors: malformed JSON, unsupported media type, body too large. */
const isClientError = (error: unknown): error is FastifyError =>
  typeof error === 'object' &&
  error !== null &&
  'statusCode' in error &&
  typeof error.statusCode === 'number' &&
  error.statusCode >= 400 &&
  error.statusCode < 500;
