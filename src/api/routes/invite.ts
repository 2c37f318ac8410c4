import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { acceptInvitation, createInvitation, findInvitation } from '../../control/invitations.ts';
import { loadMarketplaces } from '../../control/marketplaces.ts';
import { MktdataError } from '../../errors.ts';
import type { AppDeps } from '../app-deps.ts';
import { html, page } from '../../lib/html.ts';
import { createState, sellerConsentUrl } from '../../connectors/oauth.ts';
import { callbackUrl, oauthReady } from './oauth.ts';
import {
  CreatePublicInvitationRequest,
  CreatePublicInvitationResponse,
  invitationForm,
  keyProtectedErrors,
} from '../schemas/common.ts';

const tokenParams = z.object({ token: z.string().max(128) });

/** POST /api/v1/util/sellers-and-vendors/invite: a public link, valid 7 days, to register a connection. */
export async function inviteApiRoutes(app: FastifyInstance, deps: AppDeps) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/util/sellers-and-vendors/invite',
    {
      config: { auth: true },
      schema: {
        tags: ['Utility'],
        security: [{ serviceApiKey: [] }],
        body: CreatePublicInvitationRequest,
        response: { 201: CreatePublicInvitationResponse, ...keyProtectedErrors },
      },
    },
    async (request, reply) => {
      const { accountType, name, marketplaceCountryCode } = request.body;
      let marketplaceId: string | undefined;
      if (marketplaceCountryCode) {
        const country = marketplaceCountryCode.toUpperCase() === 'UK' ? 'GB' : marketplaceCountryCode.toUpperCase();
        marketplaceId = [...loadMarketplaces().values()].find((m) => m.countryCode === country)?.marketplaceId;
        if (!marketplaceId)
          throw new MktdataError('ERR_INPUT_INVALID', {
            where: 'body.marketplaceCountryCode',
            reason: `no marketplace in ${marketplaceCountryCode}`,
          });
      }
      const invitation = await createInvitation(deps.wh, {
        organizationId: request.organizationId,
        accountType,
        suggestedName: name,
        marketplaceId,
        now: new Date(deps.now?.() ?? Date.now()),
      });
      const url = `${request.protocol}://${request.host}/invite/${invitation.token}`;
      return reply.status(201).send({ invitationId: invitation.id, url, accountType, expiresAt: invitation.expiresAt });
    },
  );
}

/** The public invitation page (no key): a form that registers the connection once. */
export async function invitePageRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const now = () => new Date(deps.now?.() ?? Date.now());
  const closed = (reply: FastifyReply, status: 'unknown' | 'used' | 'expired') => {
    const [code, title, text] = {
      unknown: [404, 'Invitation not found', 'This invitation link is not valid. Ask for a new one.'],
      used: [410, 'Invitation already used', 'This invitation link has already registered a connection.'],
      expired: [
        410,
        'Invitation expired',
        'This invitation link has expired (links are valid 7 days). Ask for a new one.',
      ],
    }[status] as [number, string, string];
    return reply
      .status(code)
      .type('text/html; charset=utf-8')
      .send(page(title, `<p>${text}</p>`));
  };
  const form = (
    reply: FastifyReply,
    invitation: { account_type: string; suggested_name: string | null; marketplace_id: string | null },
    error?: string,
  ) => {
    const options = [...loadMarketplaces().values()]
      .map(
        (m) =>
          `<option value="${html(m.marketplaceId)}"${m.marketplaceId === invitation.marketplace_id ? ' selected' : ''}>${html(m.countryName)} (${html(m.countryCode)})</option>`,
      )
      .join('');
    const kind = invitation.account_type === 'VENDOR' ? 'vendor' : 'seller';
    // With the operator's SP-API application configured, the seller authorizes it on the marketplace's consent
    // page and the connection fetches by itself; without, it is registered for dropped files.
    const viaConsent = oauthReady(deps);
    const sellerId = viaConsent ? '' : '\n<label>Merchant (seller) ID <input name="sellerId" maxlength="64"></label>';
    const button = viaConsent ? `Continue to ${kind === 'vendor' ? 'Vendor' : 'Seller'} Central` : 'Connect';
    return reply
      .status(error ? 400 : 200)
      .type('text/html; charset=utf-8')
      .send(
        page(
          `Connect your ${kind} account`,
          `${error ? `<p role="alert">${html(error)}</p>` : ''}<form method="post">
<label>Account name <input name="name" required maxlength="256" value="${html(invitation.suggested_name ?? '')}"></label>
<label>Marketplace <select name="marketplaceId" required><option value="">Choose…</option>${options}</select></label>${sellerId}
<button type="submit">${button}</button></form>`,
        ),
      );
  };

  api.get('/invite/:token', { schema: { hide: true, params: tokenParams } }, async (request, reply) => {
    const found = await findInvitation(deps.wh, request.params.token, now());
    return found.status === 'open' ? form(reply, found.invitation) : closed(reply, found.status);
  });

  api.post('/invite/:token', { schema: { hide: true, params: tokenParams } }, async (request, reply) => {
    const found = await findInvitation(deps.wh, request.params.token, now());
    if (found.status !== 'open') return closed(reply, found.status);
    const parsed = invitationForm.safeParse(request.body ?? {});
    if (!parsed.success)
      return form(
        reply,
        found.invitation,
        parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
      );
    if (!loadMarketplaces().has(parsed.data.marketplaceId))
      return form(reply, found.invitation, 'marketplaceId: choose a marketplace from the list');
    if (oauthReady(deps)) {
      const config = deps.connectors!.config;
      const state = await createState(
        deps.wh,
        {
          invitationId: found.invitation.id,
          api: 'sp-api',
          connectionId: null,
          marketplaceId: parsed.data.marketplaceId,
          connectionName: parsed.data.name,
        },
        now(),
      );
      const consent = sellerConsentUrl(
        config,
        parsed.data.marketplaceId,
        found.invitation.account_type === 'VENDOR',
        state,
        callbackUrl(request, config, 'sp-api'),
      );
      return reply.redirect(consent, 302);
    }
    const { connectionId, existing } = await acceptInvitation(deps.wh, found.invitation, parsed.data);
    return reply
      .status(existing ? 200 : 201)
      .type('text/html; charset=utf-8')
      .send(
        page(
          existing ? 'Account already connected' : 'Account connected',
          `<p>${existing ? 'This account was already connected' : 'Your account is connected'}. Its sellerOrVendorId is <code>${html(connectionId)}</code>.</p>`,
        ),
      );
  });
}
