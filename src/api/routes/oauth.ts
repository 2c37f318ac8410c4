import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ConnectorConfig } from '../../connectors/config.ts';
import { ConnectorError } from '../../connectors/connector-error.ts';
import { requireCredentials, setCredentials } from '../../connectors/credentials.ts';
import { adsConsentUrl, createState, findState, useState, type OAuthState } from '../../connectors/oauth.ts';
import { acceptInvitation, invitationById } from '../../control/invitations.ts';
import type { AppDeps } from '../app-deps.ts';
import { html, page } from '../../lib/html.ts';

/** Whether invitations can start the marketplace's consent: the SP-API application is fully configured. */
export const oauthReady = (deps: AppDeps): boolean => {
  const app = deps.connectors?.config.spApi;
  return Boolean(app?.applicationId && app.clientId && app.clientSecret);
};

const adsReady = (deps: AppDeps): boolean =>
  Boolean(deps.connectors?.config.ads.clientId && deps.connectors.config.ads.clientSecret);

/** Where the marketplace sends the browser back: MKTDATA_PUBLIC_URL, else the URL this request came in on. */
export function callbackUrl(request: FastifyRequest, config: ConnectorConfig, api: 'sp-api' | 'ads'): string {
  const base = (config.publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
  return `${base}/oauth/${api}/callback`;
}

const spCallback = z.object({
  state: z.string().max(128).optional(),
  selling_partner_id: z.string().max(64).optional(),
  spapi_oauth_code: z.string().max(512).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(1024).optional(),
});
const adsCallback = z.object({
  state: z.string().max(128).optional(),
  code: z.string().max(512).optional(),
  scope: z.string().max(256).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(1024).optional(),
});
const profileChoice = z.object({ state: z.string().max(128), profileId: z.string().regex(/^\d{1,20}$/) });

const send = (reply: FastifyReply, status: number, title: string, body: string) =>
  reply.status(status).type('text/html; charset=utf-8').send(page(title, body));
const expired = (reply: FastifyReply) =>
  send(
    reply,
    400,
    'Link expired',
    '<p>This authorization has expired or was already completed. Start again from your invitation link.</p>',
  );
/** The marketplace's refusal, in words a seller understands; never a token. */
const refused = (reply: FastifyReply, error: unknown) =>
  send(
    reply,
    502,
    'Not connected',
    `<p>The marketplace did not accept the authorization: ${html(error instanceof ConnectorError ? error.message : 'unexpected answer')}. Start again from your invitation link.</p>`,
  );

/** Queues the first load of what was just connected, and says when it comes. */
function loadingNow(deps: AppDeps): string {
  const queued = deps.runNow?.({ trigger: 'connected' }) ?? [];
  return queued.length > 0
    ? 'Its first load has started; its data then loads by itself at the refresh times.'
    : 'Its first load starts at the next refresh time.';
}

/** The public OAuth callbacks of the SP-API and Ads API consents (no key: the one-time state is the proof). */
export async function oauthRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const now = () => new Date(deps.now?.() ?? Date.now());

  /** After the seller's consent: the code exchanged for a refresh token, the connection registered with it. */
  api.get('/oauth/sp-api/callback', { schema: { hide: true, querystring: spCallback } }, async (request, reply) => {
    const q = request.query;
    if (q.error)
      return send(
        reply,
        400,
        'Not connected',
        `<p>The authorization was not given (${html(q.error)}${q.error_description ? `: ${html(q.error_description)}` : ''}).</p>`,
      );
    const state = q.state && deps.connectors ? await findState(deps.wh, q.state, 'sp-api', now()) : null;
    if (!state || !q.spapi_oauth_code || !q.selling_partner_id) return expired(reply);
    const invitation = await invitationById(deps.wh.db, state.invitationId);
    if (!invitation || invitation.used_at || Date.parse(String(invitation.expires_at)) <= now().getTime())
      return expired(reply);
    let refreshToken: string;
    try {
      ({ refreshToken } = await deps
        .connectors!.lwa('sp-api')
        .exchangeCode(q.spapi_oauth_code, callbackUrl(request, deps.connectors!.config, 'sp-api')));
    } catch (error) {
      return refused(reply, error);
    }
    await useState(deps.wh, q.state!, now());
    const { connectionId, existing } = await acceptInvitation(deps.wh, invitation, {
      name: state.connectionName!,
      marketplaceId: state.marketplaceId!,
      sellerId: q.selling_partner_id,
    });
    await setCredentials(
      deps.wh,
      connectionId,
      { api: 'sp-api', refreshToken, sellingPartnerId: q.selling_partner_id },
      now(),
    );
    const loading = loadingNow(deps);
    let ads = '';
    if (adsReady(deps)) {
      const adsState = await createState(
        deps.wh,
        {
          invitationId: invitation.id,
          api: 'ads',
          connectionId,
          marketplaceId: state.marketplaceId,
          connectionName: null,
        },
        now(),
      );
      const url = adsConsentUrl(
        deps.connectors!.config,
        state.marketplaceId!,
        deps.connectors!.config.ads.clientId!,
        adsState,
        callbackUrl(request, deps.connectors!.config, 'ads'),
      );
      ads = `<p>To load advertising data too, <a href="${html(url)}">connect your advertising account</a>.</p>`;
    }
    const said = existing
      ? `This account was already connected: its authorization is renewed, nothing was added. Its sellerOrVendorId is <code>${html(connectionId)}</code>.`
      : `Your account is connected. Its sellerOrVendorId is <code>${html(connectionId)}</code>.`;
    return send(
      reply,
      existing ? 200 : 201,
      existing ? 'Account connected again' : 'Account connected',
      `<p>${said} ${loading}</p>${ads}`,
    );
  });

  /**
   * After the advertiser's consent: the refresh token stored, and the profile of the connection's marketplace chosen.
   */
  api.get('/oauth/ads/callback', { schema: { hide: true, querystring: adsCallback } }, async (request, reply) => {
    const q = request.query;
    if (q.error)
      return send(
        reply,
        400,
        'Advertising not connected',
        `<p>The authorization was not given (${html(q.error)}).</p>`,
      );
    const state = q.state && deps.connectors ? await findState(deps.wh, q.state, 'ads', now()) : null;
    if (!state?.connectionId || !q.code) return expired(reply);
    try {
      const { refreshToken } = await deps
        .connectors!.lwa('ads')
        .exchangeCode(q.code, callbackUrl(request, deps.connectors!.config, 'ads'));
      await setCredentials(deps.wh, state.connectionId, { api: 'ads', refreshToken, profileId: null }, now());
      return await chooseProfile(reply, deps, state, q.state!, null);
    } catch (error) {
      return refused(reply, error);
    }
  });

  api.post('/oauth/ads/profile', { schema: { hide: true } }, async (request, reply) => {
    const parsed = profileChoice.safeParse(request.body ?? {});
    const state = parsed.success && deps.connectors ? await findState(deps.wh, parsed.data.state, 'ads', now()) : null;
    if (!parsed.success || !state?.connectionId) return expired(reply);
    try {
      return await chooseProfile(reply, deps, state, parsed.data.state, parsed.data.profileId);
    } catch (error) {
      return refused(reply, error);
    }
  });
}

/**
 * The advertising profiles of the connection's marketplace (GET /v2/profiles on its region): one is taken at once,
 * several are offered to choose from, none is said so. The chosen profile is stored with the credentials.
 */
async function chooseProfile(
  reply: FastifyReply,
  deps: AppDeps,
  state: OAuthState,
  stateValue: string,
  chosen: string | null,
) {
  const credentials = await requireCredentials(deps.wh, state.connectionId!, 'ads');
  const profiles = (await deps.connectors!.ads(credentials).listProfiles()).filter(
    (p) => p.accountInfo?.marketplaceStringId === credentials.marketplaceId,
  );
  const ids = profiles.map((p) => String(p.profileId));
  const profileId = chosen ?? (ids.length === 1 ? ids[0]! : null);
  if (profileId && ids.includes(profileId)) {
    await setCredentials(deps.wh, state.connectionId!, {
      api: 'ads',
      refreshToken: credentials.refreshToken,
      profileId,
    });
    await useState(deps.wh, stateValue);
    return send(
      reply,
      201,
      'Advertising connected',
      `<p>Advertising profile <code>${html(profileId)}</code> is connected. ${loadingNow(deps)}</p>`,
    );
  }
  if (profiles.length === 0)
    return send(
      reply,
      400,
      'No advertising profile',
      `<p>This advertising account has no profile in marketplace ${html(credentials.marketplaceId)}.</p>`,
    );
  const options = profiles
    .map(
      (p) =>
        `<label><input type="radio" name="profileId" value="${html(String(p.profileId))}" required> ${html(p.accountInfo?.name ?? String(p.profileId))} (${html(String(p.profileId))})</label>`,
    )
    .join('<br>');
  return send(
    reply,
    200,
    'Choose the advertising profile',
    `<form method="post" action="/oauth/ads/profile"><input type="hidden" name="state" value="${html(stateValue)}">${options}<br><button type="submit">Connect</button></form>`,
  );
}
