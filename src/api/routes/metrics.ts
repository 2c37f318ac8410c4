import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MktdataError } from '../../errors.ts';
import type { Metrics } from '../../metrics/metrics.ts';

/** Options of the `/metrics` route. */
export interface MetricsRouteOptions {
  /** The bearer token Prometheus must send; without one only loopback may scrape. @default MKTDATA_METRICS_TOKEN */
  token?: string;
}

/** Whether an address is the machine's own: 127.0.0.0/8, ::1, or either mapped into IPv6. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.replace(/^::ffff:/i, '');
  if (isIP(v4) === 4) return v4.startsWith('127.');
  return address === '::1';
}

/** Compares a presented token with the expected one in constant time (their SHA-256 digests, of equal length). */
function sameToken(presented: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/** Refuses a scrape the access rule does not allow (docs/operations.md, "Metrics"). */
function checkAccess(request: FastifyRequest, token: string | undefined): void {
  if (token) {
    const presented = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim();
    if (!presented || !sameToken(presented, token)) throw new MktdataError('ERR_METRICS_UNAUTHORIZED');
    return;
  }
  if (!isLoopback(request.ip)) throw new MktdataError('ERR_METRICS_LOOPBACK_ONLY', { address: request.ip });
}

/**
 * Counts every answer of `app` by method, route pattern and status, with its latency. Register it before the routes
 * (on the root instance, so that it sees every route and the 404s).
 */
export function instrumentHttp(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.httpRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
  });
}

/**
 * `GET /metrics`: the Prometheus text exposition of `metrics`, outside the API keys and the rate limit. Loopback only,
 * unless a token is set; then anyone presenting it. Mountable on any Fastify instance (`serve`'s app, a worker's own
 * listener).
 */
export async function metricsRoutes(
  app: FastifyInstance,
  metrics: Metrics,
  options: MetricsRouteOptions = {},
): Promise<void> {
  const token = options.token ?? (process.env.MKTDATA_METRICS_TOKEN?.trim() || undefined);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    checkAccess(request, token);
    const text = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(text);
  });
}
