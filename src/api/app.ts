import { randomUUID } from 'node:crypto';
import fastifyFormbody from '@fastify/formbody';
import fastifySwagger from '@fastify/swagger';
import { Cron } from 'croner';
import Fastify, { type FastifyError, type FastifyReply } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { hashApiKey } from '../control/organizations.ts';
import { keyOrganizations } from './key-organizations.ts';
import { requestLogSerializers } from './log-redaction.ts';
import { consoleRoutes } from './routes/console.ts';
import { operatorKeyHash } from '../console/scope.ts';
import type { Warehouse } from '../db/warehouse.ts';
import { MktdataError } from '../errors.ts';
import type { Home } from '../home.ts';
import { tableNotFoundPage } from '../catalog/markdown.ts';
import { ExportWorker } from '../exports/export-worker.ts';
import { ScheduleRunner } from '../exports/schedule-runner.ts';
import { urlSigningKey } from '../exports/signed-url.ts';
import { RateLimiter, takeRateLimitToken } from './rate-limit.ts';
import { exportScheduleRoutes } from './routes/export-schedules.ts';
import { exportRoutes } from './routes/exports.ts';
import { inviteApiRoutes, invitePageRoutes } from './routes/invite.ts';
import { oauthRoutes } from './routes/oauth.ts';
import { specRoutes } from './routes/spec.ts';
import { tableFreshness } from '../pipelines/freshness.ts';
import { cachedPerPublish } from '../publish/per-publish.ts';
import { utilRoutes } from './routes/util.ts';
import { drainBody, sendError } from './error-replies.ts';
import { usageRoutes } from './routes/usage.ts';
import { cogsRoutes } from './routes/cogs.ts';
import { fileRoutes } from './routes/files.ts';
import { sweepFiles } from '../files/data-files.ts';
import { vendorCodeAndSqpRoutes } from './routes/vendor-codes-and-sqp.ts';
import { actionRoutes } from './routes/actions.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { allowedNetworks } from '../webhooks/address.ts';
import { WebhookDeliverer } from '../webhooks/deliverer.ts';
import { ActionWorker } from '../actions/action-worker.ts';
import { healthAndReadyRoutes } from './routes/health-and-ready.ts';
import { readiness } from './readiness/ready-report.ts';
import { serveChecks } from './readiness/process-checks.ts';
import { instrumentHttp, metricsRoutes } from './routes/metrics.ts';

export { apiPrefix, type App, type AppDeps, type ExportServices } from './app-deps.ts';
import { apiPrefix, type App, type AppDeps, type ExportServices } from './app-deps.ts';
import { type Freshness } from '../catalog/catalog.ts';

/** Builds the `/api/v1` app without listening; `mktdata serve` and the tests listen or inject. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const operatorHash = operatorKeyHash(deps.operatorKey ?? process.env.MKTDATA_OPERATOR_KEY);
  const app = Fastify({
    // Request lines never show a secret of the URL (an invitation's token, an OAuth code, a link's signature).
    logger:
      deps.logger === false
        ? false
        : {
            level: 'info',
            ...(typeof deps.logger === 'object' ? deps.logger : {}),
            serializers: requestLogSerializers,
          },
    // The request id is the service-api-request-id of the response; logs carry it as reqId.
    genReqId: () => randomUUID(),
    // Malformed URLs and the like: the same error body as every other error.
    frameworkErrors: (error, request, reply) => {
      reply.header('service-api-request-id', request.id);
      if (!request.url.startsWith(`${apiPrefix}/spec/data-scheme/`)) return sendError(error, request, reply);
      return (reply as FastifyReply).code(404).type('text/markdown; charset=utf-8').send(tableNotFoundPage);
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1024 },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('organizationId', '');
  // Before every route and hook below: each answer is counted, and /metrics needs no API key.
  if (deps.metrics) {
    instrumentHttp(app, deps.metrics);
    await metricsRoutes(app, deps.metrics);
  }

  const limiter = deps.limiter ?? new RateLimiter(deps.requestsPerSecond ?? 2, deps.now);
  const keys = keyOrganizations(deps.wh);
  const organizationOf = keys.organizationOf;
  app.addHook('onClose', async () => keys.close());
  app.addHook('onRequest', async (request, reply) => {
    reply.header('service-api-request-id', request.id);
    if (!request.routeOptions.config.auth) return;
    const key = request.headers['service-api-key'];
    if (typeof key !== 'string' || key === '') throw new MktdataError('ERR_AUTH_MISSING_KEY');
    const organizationId = await organizationOf(hashApiKey(key));
    if (!organizationId) throw new MktdataError('ERR_AUTH_INVALID_KEY');
    request.organizationId = organizationId;
    if (!request.routeOptions.config.ownRateLimit) await takeRateLimitToken(limiter, organizationId, reply);
  });

  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    if (error.statusCode === 413) await drainBody(request);
    return sendError(error, request, reply);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(
      new MktdataError('ERR_ROUTE_NOT_FOUND', { method: request.method, path: request.url.split('?')[0]! }),
      request,
      reply,
    ),
  );

  const log = (message: string, error?: unknown) => app.log.error({ err: error }, message);
  const worker = new ExportWorker(deps.wh, deps.home, {
    concurrency: deps.exportWorkers,
    retentionMs: (deps.exportRetentionHours ?? 24) * 3_600_000,
    now: deps.now,
    onFinished: (row) => {
      deps.metrics?.exportFinished(row);
      return schedules.notify(row);
    },
    log,
  });
  const networks = deps.webhookAllowedNetworks ?? allowedNetworks();
  const deliverer = new WebhookDeliverer(deps.wh, {
    networks,
    now: deps.now,
    intervalMs: deps.webhookIntervalMs,
    log: (message) => app.log.warn(message),
    onAttempt: deps.metrics && ((attempt) => deps.metrics!.webhookAttempt(attempt)),
  });
  const schedules = new ScheduleRunner(
    deps.wh,
    worker,
    networks,
    log,
    () => void deliverer.deliverDue().catch((e) => log('webhook deliveries failed', e)),
  );
  const actions = new ActionWorker(deps.wh, deps.connectors, deps.now, (message) => app.log.warn(message));
  const services: ExportServices = {
    worker,
    schedules,
    deliverer,
    actions,
    signingKey: await urlSigningKey(deps.wh),
    signedUrlTtlMs: (deps.signedUrlMinutes ?? 15) * 60_000,
  };
  app.decorate('exportServices', services);
  let sweeper: Cron | undefined;
  app.addHook('onReady', async () => {
    await worker.start();
    await worker.sweep();
    await sweepFiles(deps.wh, deps.home, new Date(worker.now()));
    await schedules.start();
    deliverer.start();
    if (deps.runActions !== false) await actions.start();
    sweeper = new Cron(
      '17 * * * *',
      { protect: true, catch: (e) => log('export or file sweep failed', e) },
      async () => {
        await worker.sweep();
        await sweepFiles(deps.wh, deps.home, new Date(worker.now()));
      },
    );
  });
  app.addHook('onClose', async () => {
    sweeper?.stop();
    schedules.stop();
    await worker.stop();
    await deliverer.stop();
    await actions.stop();
  });

  const freshness = cachedFreshness(deps.wh, deps.home);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'mktdata',
        description: 'Marketplace data, export and action service (spec document 000).',
        version: '1.0.0',
      },
      components: { securitySchemes: { serviceApiKey: { type: 'apiKey', in: 'header', name: 'service-api-key' } } },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(
    async (api) => {
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      await specRoutes(api, { requestsPerSecond: limiter.perSecond, freshness });
      await utilRoutes(api, deps);
      await inviteApiRoutes(api, deps);
      await exportRoutes(api, deps, services);
      await exportScheduleRoutes(api, deps, services);
      await usageRoutes(api, deps);
      await cogsRoutes(api, deps);
      await fileRoutes(api, deps, services);
      await vendorCodeAndSqpRoutes(api, deps);
      await actionRoutes(api, deps, actions);
      await webhookRoutes(api, deps, networks);
    },
    { prefix: apiPrefix },
  );
  for (const extend of deps.extensions ?? []) await extend(app, { deps, services, limiter, freshness });
  await app.register(fastifyFormbody);
  await invitePageRoutes(app, deps);
  await oauthRoutes(app, deps);
  await healthAndReadyRoutes(app, deps.ready ?? readiness(serveChecks(deps.wh), { root: deps.home.root }));
  const resolver = {
    operatorHash,
    organizationOf,
    signingKey: services.signingKey,
    wh: deps.wh,
    now: () => deps.now?.() ?? Date.now(),
  };
  await consoleRoutes(app, deps, { resolver, freshness });
  return app;
}

/**
 * The catalog's freshness for the keyless spec endpoints, computed once per publish and at most every 5 s (fetches
 * move `lastFetchedAt` between publishes): those endpoints answer every client from it instead of querying the
 * control plane per request.
 */
function cachedFreshness(wh: Warehouse, home: Home): () => Promise<Map<string, Freshness>> {
  return cachedPerPublish(() => tableFreshness(wh, home));
}
