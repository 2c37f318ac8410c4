import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { catalogSources, findSources } from '../../catalog/catalog.ts';
import { dataSchemeIndex, tableNotFoundPage, tablePage } from '../../catalog/markdown.ts';
import { eventDefinitions } from '../../vocabulary/webhook-events.ts';
import { ApiBadRequestResponse } from '../schemas/common.ts';
import { serviceApiMarkdown } from '../service-api-md.ts';
import { documentCache, sendDocument } from '../cached-document.ts';
import { type Freshness } from '../../catalog/catalog.ts';
import {
  ExportSourcesResponse,
  WebhookSchemeResponse,
  catalogFilterQuery,
  tableFileParams,
} from '../schemas/catalog.ts';

const markdown = 'text/markdown; charset=utf-8';
const json = 'application/json; charset=utf-8';
const tableFile = /^([a-z][a-z0-9_]{0,127})\.md$/;
/** What the route's serializer does, once per cached document: check it against its response schema, then stringify. */
const serialize = <S extends z.ZodType>(schema: S, value: z.input<S>) =>
  JSON.stringify(z.encode(schema, value as z.output<S>));

/** The specification endpoints: no key, no rate limit; generated from the catalog .yml files and event definitions. */
export async function specRoutes(
  app: FastifyInstance,
  limits: { requestsPerSecond: number; freshness: () => Promise<Map<string, Freshness>> },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Specification'];
  const cached = documentCache();
  const always = {};

  api.get(
    '/spec/data-scheme',
    {
      schema: {
        tags,
        summary: 'The catalog of data tables, filtered',
        querystring: catalogFilterQuery,
        response: { 200: ExportSourcesResponse, 400: ApiBadRequestResponse },
      },
    },
    async (request, reply) => {
      const freshness = await limits.freshness();
      const document = cached(freshness, JSON.stringify(request.query), json, () => {
        const sources = findSources(request.query).map((s) => ({ ...s, freshness: freshness.get(s.tableName) }));
        const recommendedSources = sources
          .filter((s) => s.defaultDataset)
          .map(({ id, name, tableName }) => ({ id, name, tableName }));
        return serialize(ExportSourcesResponse, { sources, recommendedSources });
      });
      return sendDocument(request, reply, document);
    },
  );

  api.get(
    '/spec/data-scheme.md',
    {
      schema: {
        tags,
        summary: 'Markdown index of the catalog',
        querystring: catalogFilterQuery,
        produces: ['text/markdown'],
      },
    },
    async (request, reply) =>
      sendDocument(
        request,
        reply,
        cached(always, `index ${JSON.stringify(request.query)}`, markdown, () =>
          dataSchemeIndex(findSources(request.query)),
        ),
      ),
  );

  api.get(
    '/spec/data-scheme/:file',
    {
      schema: {
        tags,
        summary: 'Markdown page of one table (<table_name>.md)',
        params: tableFileParams,
        produces: ['text/markdown'],
      },
    },
    async (request, reply) => {
      const name = tableFile.exec(request.params.file)?.[1];
      const sources = name ? catalogSources().filter((s) => s.tableName === name) : [];
      if (sources.length === 0) return reply.status(404).type(markdown).send(tableNotFoundPage);
      const freshness = await limits.freshness();
      return sendDocument(
        request,
        reply,
        cached(freshness, name!, markdown, () => tablePage(name!, sources, freshness.get(name!))),
      );
    },
  );

  api.get(
    '/spec/webhook-scheme',
    { schema: { tags, summary: 'Every webhook event definition', response: { 200: WebhookSchemeResponse } } },
    async (request, reply) =>
      sendDocument(
        request,
        reply,
        cached(always, 'webhooks', json, () => serialize(WebhookSchemeResponse, { messages: eventDefinitions })),
      ),
  );

  api.get(
    '/spec/service_api.md',
    { schema: { tags, summary: 'Instructions for agents: the flow, limits and errors', produces: ['text/markdown'] } },
    async (request, reply) =>
      sendDocument(
        request,
        reply,
        cached(always, 'service_api', markdown, () => serviceApiMarkdown(limits)),
      ),
  );
}
