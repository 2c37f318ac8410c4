import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FakeApi, FakeApp, FakeState } from './state.ts';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Whether the app accepts this redirect URI: a registered one, or any http(s) URI when it registered none. */
function redirectAllowed(app: FakeApp, uri: string): boolean {
  if (app.redirectUris?.length) return app.redirectUris.includes(uri);
  return /^https?:\/\//.test(uri);
}

/** The consent page: the fake's sellers to sign in as, and a Confirm button posting back with the request's fields. */
function consentPage(
  reply: FastifyReply,
  title: string,
  action: string,
  fields: Record<string, string>,
  sellers: { sellerId: string; name: string }[],
) {
  const hidden = Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${escape(k)}" value="${escape(v)}">`)
    .join('');
  const options = sellers
    .map((s) => `<option value="${escape(s.sellerId)}">${escape(s.name)} (${escape(s.sellerId)})</option>`)
    .join('');
  return reply
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body><h1>${escape(title)}</h1><form method="post" action="${escape(action)}">${hidden}<label>Sign in as <select name="sellerId">${options}</select></label> <button type="submit">Confirm</button></form></body></html>`,
    );
}

/**
 * Seller Central's app consent (website workflow) and the Ads API's Login with Amazon consent (docs/design/live-apis.md
 * §1.3).
 */
export function consentRoutes(app: FastifyInstance, state: FakeState): void {
  const sellers = () => [...state.sellers.values()].map((s) => ({ sellerId: s.sellerId, name: s.name }));
  const finish = (
    reply: FastifyReply,
    api: FakeApi,
    registered: FakeApp | undefined,
    form: Record<string, string>,
    at: number,
  ) => {
    const redirect = form.redirect_uri ?? registered?.redirectUris?.[0] ?? '';
    const seller = state.sellers.get(form.sellerId ?? '');
    const ok = registered && seller && redirectAllowed(registered, redirect) && (api === 'sp-api' || seller.ads);
    state.record({
      at,
      api: 'consent',
      operation: api === 'sp-api' ? 'consent' : 'adsConsent',
      sellerId: seller?.sellerId ?? null,
      status: ok ? 302 : 400,
      overRate: false,
      detail: {},
    });
    if (!ok)
      return reply
        .status(400)
        .type('text/html; charset=utf-8')
        .send('<!doctype html><p>This authorization request is not valid (application, account or redirect URI).</p>');
    const code = state.issueCode(seller.sellerId, api, registered.clientId, redirect);
    const target = new URL(redirect);
    if (api === 'sp-api') {
      target.searchParams.set('state', form.state ?? '');
      target.searchParams.set('selling_partner_id', seller.sellerId);
      target.searchParams.set('spapi_oauth_code', code);
    } else {
      target.searchParams.set('code', code);
      target.searchParams.set('scope', 'advertising::campaign_management');
      target.searchParams.set('state', form.state ?? '');
    }
    return reply.redirect(target.toString(), 302);
  };
  const spApp = (id: string | undefined) => (state.spApp.applicationId === id ? state.spApp : undefined);

  app.get('/apps/authorize/consent', async (request, reply) => {
    const q = request.query as Record<string, string>;
    if (!spApp(q.application_id))
      return reply.status(400).type('text/html; charset=utf-8').send('<!doctype html><p>Unknown application.</p>');
    return consentPage(reply, 'Authorize the application', '/apps/authorize/consent', q, sellers());
  });
  app.post('/apps/authorize/consent', async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, string>;
    return finish(reply, 'sp-api', spApp(form.application_id), form, request.stamp);
  });
  app.get('/ap/oa', async (request, reply) => {
    const q = request.query as Record<string, string>;
    if (
      q.client_id !== state.adsApp.clientId ||
      q.response_type !== 'code' ||
      q.scope !== 'advertising::campaign_management'
    ) {
      return reply
        .status(400)
        .type('text/html; charset=utf-8')
        .send('<!doctype html><p>Invalid authorization request.</p>');
    }
    return consentPage(
      reply,
      'Allow access to your advertising data',
      '/ap/oa',
      q,
      sellers().filter((s) => state.sellers.get(s.sellerId)!.ads),
    );
  });
  app.post('/ap/oa', async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, string>;
    return finish(
      reply,
      'ads',
      form.client_id === state.adsApp.clientId ? state.adsApp : undefined,
      form,
      request.stamp,
    );
  });
}
