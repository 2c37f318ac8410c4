import type { AdsRoute } from './ads-routes.ts';

/** Campaign management operations the ads action types call (issue 18). */
export function adsManagementRoutes(): AdsRoute[] {
  return [];
}
