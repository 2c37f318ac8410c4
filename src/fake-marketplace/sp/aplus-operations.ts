import type { SpRoute } from './sp-routes.ts';

export function aplusRoutes(): SpRoute[] {
  return [];
}
