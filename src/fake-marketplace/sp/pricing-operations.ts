import type { SpRoute } from './sp-routes.ts';

export function pricingRoutes(): SpRoute[] {
  return [];
}
