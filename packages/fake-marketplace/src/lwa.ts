import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FakeState } from './state.ts';

const grantlessScopes = new Set(['sellingpartnerapi::notifications', 'sellingpartnerapi::client_credential:rotation']);

/** An OAuth 2.0 error answer (docs/design/live-apis.md §1.1), with the extra fields observed upstream. */
function oauthError(reply: FastifyReply, status: number, error: string, description: string) {
  return reply.status(status).send({
    error,
    error_description: description,
    error_index: `${Math.floor(Math.random() * 1e9)}`,
    request_id: crypto.randomUUID(),
  });
}

/**
 * Login with Amazon's token endpoint, POST /auth/o2/token, form or JSON bodies (the documented form and what two
 * client libraries send): refresh_token, authorization_code and client_credentials grants.
 */
export function lwaRoutes(app: FastifyInstance, state: FakeState): void {
  app.post('/auth/o2/token', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, string>;
    const log = (status: number, sellerId: string | null) =>
      state.record({
        at: request.stamp,
        api: 'lwa',
        operation: 'token',
        sellerId,
        status,
        overRate: false,
        detail: { grantType: body.grant_type ?? null },
      });
    const registered = state.app(body.client_id ?? '');
    if (!registered || registered.clientSecret !== body.client_secret) {
      log(401, null);
      return oauthError(reply, 401, 'invalid_client', 'Client authentication failed');
    }
    if (body.grant_type === 'refresh_token') {
      const grant = state.grants.get(body.refresh_token ?? '');
      if (!grant || grant.revoked || grant.clientId !== registered.clientId) {
        log(400, grant?.sellerId ?? null);
        return oauthError(reply, 400, 'invalid_grant', 'The request has an invalid grant parameter : refresh_token');
      }
      const issued = state.issueAccessToken(grant.sellerId, grant.api, registered.clientId);
      log(200, grant.sellerId);
      return {
        access_token: issued.token,
        refresh_token: body.refresh_token,
        token_type: 'bearer',
        expires_in: issued.expiresIn,
      };
    }
    if (body.grant_type === 'authorization_code') {
      const code = state.codes.get(body.code ?? '');
      if (
        !code ||
        code.used ||
        code.expiresAt <= state.clock.now() ||
        code.clientId !== registered.clientId ||
        code.redirectUri !== body.redirect_uri
      ) {
        log(400, code?.sellerId ?? null);
        return oauthError(reply, 400, 'invalid_grant', 'The request has an invalid grant parameter : code');
      }
      code.used = true;
      const refreshToken = state.grant(code.sellerId, code.api);
      const issued = state.issueAccessToken(code.sellerId, code.api, registered.clientId);
      log(200, code.sellerId);
      return {
        access_token: issued.token,
        refresh_token: refreshToken,
        token_type: 'bearer',
        expires_in: issued.expiresIn,
      };
    }
    if (body.grant_type === 'client_credentials') {
      if (!grantlessScopes.has(body.scope ?? '')) {
        log(400, null);
        return oauthError(reply, 400, 'invalid_scope', 'The requested scope is invalid, unknown, or malformed');
      }
      const issued = state.issueAccessToken(null, 'sp-api', registered.clientId);
      log(200, null);
      return { access_token: issued.token, token_type: 'bearer', expires_in: issued.expiresIn };
    }
    log(400, null);
    return oauthError(
      reply,
      400,
      'unsupported_grant_type',
      'The authorization grant type is not supported by the authorization server',
    );
  });
}
