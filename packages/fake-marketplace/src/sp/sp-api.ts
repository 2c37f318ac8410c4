import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FakeState } from '../state.ts';
import { SpError } from './sp-error.ts';
import type { SpRoute } from './sp-routes.ts';

const regions: Record<string, 'NA' | 'EU' | 'FE'> = { na: 'NA', eu: 'EU', fe: 'FE' };
const denied = (details: string) =>
  new SpError(403, 'Unauthorized', 'Access to requested resource is denied.', details);

/** The seller of a request's access token, or the 403 of docs/design/live-apis.md §1.2 that tells the cases apart. */
function authenticate(state: FakeState, request: FastifyRequest) {
  const token = state.tokens.get(String(request.headers['x-amz-access-token'] ?? ''));
  if (!token || token.api !== 'sp-api' || !token.sellerId)
    throw denied('The access token you provided is revoked, malformed or invalid.');
  if (token.expiresAt <= state.clock.now()) throw denied('The access token you provided has expired.');
  return state.sellers.get(token.sellerId)!;
}

/**
 * The SP-API under `/sp/{na|eu|fe}`: an unknown path answers 403 MissingAuthenticationToken; then the access token,
 * the host's region and the role (switch) are checked; then the documented bucket (429 QuotaExceeded when
 * enforced, `overRate` logged either way), the fault switches, the latency, and the operation itself.
 */
export function spApiRoutes(
  app: FastifyInstance,
  state: FakeState,
  routes: SpRoute[],
  base: () => string,
  recordExchanges = false,
): void {
  app.all('/sp/:region/*', async (request, reply: FastifyReply) => {
    reply.header('x-amzn-RequestId', randomUUID());
    const url = new URL(request.url, 'http://fake');
    const path = url.pathname.replace(/^\/sp\/[a-z]+/, '');
    const region = regions[(request.params as { region: string }).region];
    const route = routes.find((r) => r.method === request.method && r.pattern.test(path));
    const detail: Record<string, unknown> = {};
    let sellerId: string | null = null;
    let overRate = false;
    let status = 500;
    let answered: unknown;
    try {
      if (!route || !region) {
        reply.header('x-amzn-ErrorType', 'MissingAuthenticationTokenException');
        throw new SpError(403, 'MissingAuthenticationToken', 'Missing Authentication Token');
      }
      const seller = authenticate(state, request);
      sellerId = seller.sellerId;
      if (seller.region !== region) throw denied('');
      const switches = state.switches.get(route.operation);
      if (switches.roleMissing) throw denied('');
      const check = state.throttle.check(seller.sellerId, route.operation, {
        earliest: request.earliest,
        latest: request.stamp,
      });
      overRate = check.overRate;
      if (!check.allowed || state.switches.draw(switches.throttleRate))
        throw new SpError(429, 'QuotaExceeded', 'You exceeded your quota for the requested resource.');
      if (state.switches.draw(switches.serverErrorRate))
        throw new SpError(
          state.switches.draw(0.5) ? 500 : 503,
          'InternalFailure',
          'We encountered an internal error. Please try again.',
        );
      if (switches.latencyMs > 0) await state.clock.sleep(switches.latencyMs);
      const params = route.pattern.exec(path)!.slice(1).map(decodeURIComponent);
      const answer = await route.handler({
        state,
        seller,
        base: base(),
        at: request.stamp,
        params,
        query: Object.fromEntries(url.searchParams),
        rawQuery: url.searchParams,
        body: request.body,
        detail,
      });
      status = answer.status;
      answered = answer.body;
      if (check.rate !== null) reply.header('x-amzn-RateLimit-Limit', String(check.rate));
      return reply.status(answer.status).send(answer.body);
    } catch (error) {
      if (!(error instanceof SpError)) throw error;
      status = error.status;
      answered = error.body;
      return reply.status(error.status).send(error.body);
    } finally {
      state.record({
        at: request.stamp,
        api: 'sp',
        operation: route?.operation ?? 'unknown',
        sellerId,
        status,
        overRate,
        detail,
        ...(recordExchanges && {
          exchange: {
            method: request.method,
            path,
            query: [...url.searchParams],
            headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)])),
            body: request.body,
            response: {
              status,
              headers: Object.fromEntries(Object.entries(reply.getHeaders()).map(([k, v]) => [k, String(v)])),
              body: answered,
            },
          },
        }),
      });
    }
  });
}
