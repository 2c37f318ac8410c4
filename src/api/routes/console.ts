import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { hashApiKey } from '../../control/organizations.ts';
import { MktdataError } from '../../errors.ts';
import { consoleScript } from '../../console/charts.ts';
import { consolePage, consolePages, html } from '../../console/layout.ts';
import { scopeConnections, type PageContext } from '../../console/page-context.ts';
import { loadPipelines } from '../../pipelines/pipeline-config.ts';
import type { RunRequest } from '../../pipelines/pipeline-scheduler.ts';
import { snapshotFigures } from '../../console/snapshot-figures.ts';
import { catalogIndexPage, catalogTablePage } from '../../console/pages/catalog.ts';
import { connectionsPage } from '../../console/pages/connections.ts';
import { exportsPage } from '../../console/pages/exports.ts';
import { quarantinePage, retryRefusedFile } from '../../console/pages/quarantine.ts';
import { runPage, runsPage } from '../../console/pages/runs.ts';
import { tablesPage } from '../../console/pages/tables.ts';
import { webhooksPage } from '../../console/pages/webhooks.ts';
import { endSession, requestScope, scopeOfHash, startSession, type ScopeResolver } from '../../console/scope.ts';
import type { AppDeps } from '../app-deps.ts';
import { page } from '../../lib/html.ts';
import { type Freshness } from '../../catalog/catalog.ts';

/** What the console needs besides the app's dependencies. */
export interface ConsoleDeps {
  resolver: ScopeResolver;
  freshness: () => Promise<Map<string, Freshness>>;
}

const require = createRequire(import.meta.url);
const assets: Record<string, { type: string; body: () => string }> = {
  'uplot.min.js': {
    type: 'text/javascript; charset=utf-8',
    body: () => readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8'),
  },
  'uplot.min.css': {
    type: 'text/css; charset=utf-8',
    body: () => readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8'),
  },
  'console.js': { type: 'text/javascript; charset=utf-8', body: () => consoleScript },
};

const security = {
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

const loginForm = z.object({ key: z.string().min(1).max(512), next: z.string().max(2048).optional() });
/** A path or query parameter as one string of at most `max` characters ('' when absent or repeated). */
const param = (values: unknown, name: string, max = 128) => {
  const value = (values as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value.slice(0, max) : '';
};

/** Whether an `Origin` header names this host; one that is no URL (or `null`) does not. */
function sameHost(origin: string, host: string): boolean {
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

/** A local path to go back to after signing in; anything else goes to the first page. */
const localPath = (next: unknown) => (typeof next === 'string' && /^\/(?![/\\])/.test(next) ? next : '/');

/**
 * The operator's console at `/`: server-rendered pages over the control plane and the published snapshot, seen
 * through the organization of the key that signed in (or every organization with the operator key).
 */
export async function consoleRoutes(app: FastifyInstance, deps: AppDeps, console: ConsoleDeps) {
  await app.register(fastifyCookie);
  const now = () => new Date(deps.now?.() ?? Date.now());
  // The published figures are read again soon after each publish, not by the first page that needs them.
  let warmer: NodeJS.Timeout | undefined;
  const warm = () =>
    void snapshotFigures(deps.home, now().toISOString().slice(0, 10)).catch((error) =>
      app.log.warn({ err: error }, 'console: reading the published figures failed'),
    );
  app.addHook('onReady', async () => {
    warm();
    warmer = setInterval(warm, 2000).unref();
  });
  app.addHook('onClose', async () => clearInterval(warmer));
  const cached = new Map<string, string>();
  app.get('/assets/:name', { schema: { hide: true } }, async (request, reply) => {
    const name = param(request.params, 'name');
    const asset = Object.hasOwn(assets, name) ? assets[name] : undefined;
    if (!asset) throw new MktdataError('ERR_ROUTE_NOT_FOUND', { method: 'GET', path: request.url });
    if (!cached.has(name)) cached.set(name, asset.body());
    return reply.type(asset.type).header('cache-control', 'public, max-age=3600').send(cached.get(name));
  });

  const send = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).headers(security).type('text/html; charset=utf-8').send(body);
  const loginPage = (next: string, error?: string) =>
    page(
      'Sign in to mktdata',
      `${error ? `<p role="alert" style="color:#cf222e">${html(error)}</p>` : ''}
<form method="post" action="/login"><p><label for="key">API key of your organization, or the operator key</label><br>
<input type="password" id="key" name="key" autocomplete="current-password" required style="width:100%;max-width:28em"></p>
<input type="hidden" name="next" value="${html(next)}"><p><button type="submit">Sign in</button></p></form>`,
    );

  app.get('/login', { schema: { hide: true } }, async (request, reply) =>
    send(reply, 200, loginPage(localPath(param(request.query, 'next', 2048)))),
  );
  app.post('/login', { schema: { hide: true } }, async (request, reply) => {
    const form = loginForm.safeParse(request.body);
    if (!form.success) return send(reply, 400, loginPage('/', 'Enter a key (at most 512 characters).'));
    const hash = hashApiKey(form.data.key);
    if (!(await scopeOfHash(console.resolver, hash)))
      return send(
        reply,
        401,
        loginPage(localPath(form.data.next), 'That key is neither an API key of an organization nor the operator key.'),
      );
    startSession(console.resolver, request, reply, hash);
    return reply.code(303).header('location', localPath(form.data.next)).send();
  });
  app.post('/logout', { schema: { hide: true } }, async (_request, reply) => {
    endSession(reply);
    return reply.code(303).header('location', '/login').send();
  });

  /** A page for a signed-in scope; without one, GETs go to the sign-in page and other methods get a 401. */
  const guarded = (
    path: string,
    title: string,
    render: (
      ctx: PageContext,
      request: FastifyRequest,
    ) => Promise<string | null | { redirect: string } | { title: string; body: string }>,
    options: { method?: 'GET' | 'POST'; scripts?: boolean } = {},
  ) =>
    app.route({
      method: options.method ?? 'GET',
      url: path,
      schema: { hide: true },
      handler: async (request, reply) => {
        const scope = await requestScope(console.resolver, request);
        if (!scope) {
          if (request.method === 'GET')
            return reply
              .code(303)
              .header('location', `/login?next=${encodeURIComponent(request.url)}`)
              .send();
          return send(reply, 401, page('Not signed in', '<p><a href="/login">Sign in</a> first.</p>'));
        }
        const origin = request.headers.origin;
        if (request.method === 'POST' && origin && !sameHost(origin, request.host))
          return send(reply, 403, page('Refused', '<p>A form of another site cannot act here.</p>'));
        const ctx: PageContext = {
          wh: deps.wh,
          home: deps.home,
          scope,
          now: now(),
          pipelines: deps.runNow ? pipelineNames : undefined,
        };
        try {
          const body = await render(ctx, request);
          if (body === null)
            return send(reply, 404, consolePage(scope, path, 'Not found', '<p>Nothing here for your key.</p>'));
          if (typeof body === 'object' && 'redirect' in body)
            return reply.code(303).header('location', body.redirect).send();
          if (typeof body === 'object')
            return send(reply, 200, consolePage(scope, path, body.title, body.body, options));
          return send(reply, 200, consolePage(scope, path, title, body, options));
        } catch (error) {
          if (!(error instanceof MktdataError) || error.status >= 500) throw error;
          return send(
            reply,
            error.status,
            consolePage(scope, path, 'Refused', `<p role="alert" class="error">${html(error.message)}</p>`),
          );
        }
      },
    });

  const pipelineNames = loadPipelines().map((p) => p.name);
  const runNow = (request: RunRequest) => {
    if (!deps.runNow) throw new MktdataError('ERR_RUNS_ELSEWHERE');
    return deps.runNow(request);
  };
  const titles = new Map<string, string>(consolePages.map((p) => [p.path, p.title]));
  guarded('/', titles.get('/')!, (ctx) => connectionsPage(ctx), { scripts: true });
  guarded(
    '/runs',
    titles.get('/runs')!,
    (ctx, request) => runsPage(ctx, param(request.query, 'queued', 300) || undefined),
    { scripts: true },
  );
  guarded('/runs/:id', 'Run', (ctx, request) => runPage(ctx, param(request.params, 'id')));
  // "Run now": a pipeline (or every one) queued as at a refresh time; a connection's tables refreshed now.
  guarded(
    '/runs/now',
    'Run now',
    async (_ctx, request) => {
      const pipeline = param(request.body, 'pipeline');
      if (pipeline && !pipelineNames.includes(pipeline))
        throw new MktdataError('ERR_INPUT_INVALID', { where: 'pipeline', reason: `no pipeline ${pipeline}` });
      const queued = runNow({ pipeline: pipeline || undefined, trigger: 'console' });
      return { redirect: `/runs?queued=${encodeURIComponent(queued.join(','))}` };
    },
    { method: 'POST' },
  );
  guarded(
    '/connections/:id/refresh',
    'Refresh now',
    async (ctx, request) => {
      const id = param(request.params, 'id');
      if (!(await scopeConnections(ctx)).some((c) => c.id === id)) return null;
      const queued = runNow({ trigger: 'console', refresh: [id] });
      return { redirect: `/runs?queued=${encodeURIComponent(queued.join(','))}` };
    },
    { method: 'POST' },
  );
  guarded('/tables', titles.get('/tables')!, async (ctx) => tablesPage(ctx, await console.freshness()));
  guarded('/quarantine', titles.get('/quarantine')!, (ctx, request) =>
    quarantinePage(ctx, param(request.query, 'retried', 300) || undefined),
  );
  guarded(
    '/quarantine/:id/retry',
    'Retry',
    async (ctx, request) => {
      const name = await retryRefusedFile(ctx, param(request.params, 'id'));
      return { redirect: `/quarantine?retried=${encodeURIComponent(name)}` };
    },
    { method: 'POST' },
  );
  guarded('/exports', titles.get('/exports')!, (ctx) => exportsPage(ctx));
  guarded('/webhooks', titles.get('/webhooks')!, (ctx) => webhooksPage(ctx));
  guarded(
    '/catalog',
    titles.get('/catalog')!,
    async (_ctx, request) => catalogIndexPage(param(request.query, 'q', 200)),
    { scripts: true },
  );
  guarded('/catalog/:table', 'Catalog', async (_ctx, request) => {
    const name = param(request.params, 'table');
    const body = catalogTablePage(name, (await console.freshness()).get(name));
    return body === null ? null : { title: name, body };
  });
}
