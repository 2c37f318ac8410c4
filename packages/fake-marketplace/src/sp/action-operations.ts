import type { DocumentStore } from '../documents.ts';
import { aplusRoutes } from './aplus-operations.ts';
import { feedRoutes } from './feed-operations.ts';
import { mcfRoutes } from './mcf-operations.ts';
import { orderRoutes } from './order-operations.ts';
import { pricingRoutes } from './pricing-operations.ts';
import type { SpRoute } from './sp-routes.ts';
import { vendorRoutes } from './vendor-operations.ts';

/**
 * The SP-API operations the action types call beyond listings (their state lives in each factory's closure, one per
 * fake marketplace): pricing and fees; orders, shipping and removals (feeds); A+ content; multi-channel fulfillment;
 * vendor operations.
 */
export function actionSpRoutes(documents: DocumentStore): SpRoute[] {
  return [
    ...pricingRoutes(),
    ...orderRoutes(),
    ...feedRoutes(documents),
    ...aplusRoutes(),
    ...mcfRoutes(),
    ...vendorRoutes(),
  ];
}
