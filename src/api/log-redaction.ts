import type { FastifyRequest } from 'fastify';

/**
 * Query parameters that carry a secret: the OAuth callbacks' code and one-time state, signed links' signatures,
 * and any token or key a client may put in a URL.
 */
const secretParams = new Set([
  'spapi_oauth_code',
  'code',
  'state',
  'signature',
  'x-amz-signature',
  'token',
  'access_token',
  'refresh_token',
  'key',
  'service-api-key',
]);

/** A request URL as a log may show it: an invitation's token and every secret query parameter replaced. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  const path = (at < 0 ? url : url.slice(0, at)).replace(/^(\/invite\/)[^/]+/, '$1[redacted]');
  if (at < 0) return path;
  const params = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=')[0]!;
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // (Not percent-encoded properly: compared as sent.)
      }
      return secretParams.has(decoded.toLowerCase()) ? `${name}=[redacted]` : pair;
    });
  return `${path}?${params.join('&')}`;
}

/** Fastify's request log fields (method, URL, host, client address), with the URL redacted. */
export const requestLogSerializers = {
  req: (request: FastifyRequest) => ({
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }),
};
