import type { SpRoute } from './sp-routes.ts';

export function orderRoutes(): SpRoute[] {
  return [];
}
