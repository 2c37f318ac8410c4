import type { SpRoute } from './sp-routes.ts';

export function vendorRoutes(): SpRoute[] {
  return [];
}
