import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { loadMarketplaces } from '../../control/marketplaces.ts';
import { MktdataError } from '../../errors.ts';
import { initialLoadStages } from '../../pipelines/load-stages.ts';
import { accountLinks } from '../../control/account-links.ts';
import type { AppDeps } from '../app-deps.ts';
import {
  SellersAndVendorsResponseDto,
  UtilityOrganizationResponseDto,
  keyProtectedErrors,
  sellersAndVendorsQuery,
} from '../schemas/common.ts';
import { searchConnections } from '../../control/connections/connections.ts';
import { findOrganization } from '../../control/organizations.ts';
import { writableConnections } from '../../actions/settings.ts';

const security = [{ serviceApiKey: [] }];

/** Utility endpoints: the caller's organization and its connected sellers and vendors. */
export async function utilRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/util/organization',
    {
      config: { auth: true },
      schema: { tags: ['Utility'], security, response: { 200: UtilityOrganizationResponseDto, ...keyProtectedErrors } },
    },
    async (request) => {
      const org = await findOrganization(deps.wh.db, request.organizationId);
      if (!org) throw new MktdataError('ERR_ORG_NOT_FOUND', { id: request.organizationId });
      return {
        id: org.id,
        name: org.name,
        tokenBalance: org.token_balance === null ? null : Number(org.token_balance),
        limits: {
          requestsPerSecond: deps.requestsPerSecond ?? 2,
          exportsPageSizeMax: 25,
          sellersAndVendorsPageSizeMax: 100,
        },
      };
    },
  );

  api.get(
    '/util/sellers-and-vendors',
    {
      config: { auth: true },
      schema: {
        tags: ['Utility'],
        security,
        querystring: sellersAndVendorsQuery,
        response: { 200: SellersAndVendorsResponseDto, ...keyProtectedErrors },
      },
    },
    async (request) => sellersAndVendors(deps, request.organizationId, request.query),
  );
}

/** GET /util/sellers-and-vendors (and the MCP tool `list_sellers_and_vendors`): a page of the organization's accounts. */
export async function sellersAndVendors(
  deps: Pick<AppDeps, 'wh' | 'home'>,
  organizationId: string,
  filter: z.output<typeof sellersAndVendorsQuery>,
) {
  const { page, pageSize, query, marketplaceCountryCode } = filter;
  const marketplaces = loadMarketplaces();
  // UK and GB both mean the United Kingdom marketplace.
  const country = marketplaceCountryCode?.toUpperCase() === 'UK' ? 'GB' : marketplaceCountryCode?.toUpperCase();
  const marketplaceIds = country
    ? [...marketplaces.values()].filter((m) => m.countryCode === country).map((m) => m.marketplaceId)
    : null;
  const { total, rows } = await searchConnections(deps.wh.db, organizationId, {
    ...(query ? { query } : {}),
    marketplaceIds,
    page,
    pageSize,
  });
  const stageOf = await initialLoadStages(deps.wh, deps.home);
  const links = await accountLinks(deps.wh, rows);
  const granted = await writableConnections(deps.wh.db);
  const items = rows.map((c) => {
    const marketplace = marketplaces.get(c.marketplace_id)!;
    return {
      id: c.id,
      sellerOrVendorId: c.id,
      name: c.name,
      ...links.get(c.id)!,
      marketplaceId: c.marketplace_id,
      marketplaceCountryCode: marketplace.countryCode,
      marketplaceCountryName: marketplace.countryName,
      marketplaceSellerId: c.seller_id,
      connections: [
        {
          type: c.type as 'SELLER_CENTRAL' | 'VENDOR_CENTRAL' | 'MKT_ADS',
          createdAt: new Date(String(c.created_at)).toISOString(),
        },
      ],
      // READ unless the seller granted write access (`mktdata connections access`), which live actions need.
      accessLevel: granted.has(c.id) ? ('READ_AND_WRITE' as const) : ('READ' as const),
      initialLoadStage: stageOf(c.id),
    };
  });
  return { items, page, pageSize, totalCount: Number(total) };
}
