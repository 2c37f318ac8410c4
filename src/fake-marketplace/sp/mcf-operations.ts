import type { SpRoute } from './sp-routes.ts';

export function mcfRoutes(): SpRoute[] {
  return [];
}
