import { adsAccountRoutes } from './ads-management-accounts.ts';
import { adsEntityRoutes } from './ads-management-entities.ts';
import { adsBudgetRuleRoutes } from './ads-management-rules.ts';
import { AdsManagementStore } from './ads-management-store.ts';
import type { AdsRoute } from './ads-routes.ts';

/**
 * Campaign management operations the ads action types call, over one in-memory store per fake marketplace
 * (by profile, seeded for each advertiser): Ads API v1 unified entities (campaigns, ad groups, ads, targets, ad
 * associations), portfolios v3, brands, SP recommendations and SP/SB/SD budget rules.
 */
export function adsManagementRoutes(): AdsRoute[] {
  const store = new AdsManagementStore();
  return [...adsEntityRoutes(store), ...adsAccountRoutes(store), ...adsBudgetRuleRoutes(store)];
}
