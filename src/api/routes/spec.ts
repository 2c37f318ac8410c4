import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { findSources } from '../../catalog/catalog.ts';
import { ApiBadRequestResponse, ExportSourcesResponse, catalogFilterQuery } from '../schemas.ts';

/** The specification endpoints: no key, no rate limit. */
export async function specRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/spec/data-scheme',
    {
      schema: {
        tags: ['Specification'],
        summary: 'The catalog of data tables, filtered',
        querystring: catalogFilterQuery,
        response: { 200: ExportSourcesResponse, 400: ApiBadRequestResponse },
      },
    },
    async (request) => {
      const sources = findSources(request.query);
      const recommendedSources = sources.filter((s) => s.defaultDataset).map(({ id, name, tableName }) => ({ id, name, tableName }));
      return { sources, recommendedSources };
    },
  );
}
