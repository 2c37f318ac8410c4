import type { ActionType } from '../action-types.ts';
import { adsActions } from './ads.ts';
import { aplusActions } from './aplus.ts';
import type { ActionDefinition } from './define.ts';
import { listingsActions } from './listings.ts';
import { mcfActions } from './mcf.ts';
import { ordersActions } from './orders.ts';
import { pricingActions } from './pricing.ts';
import { vendorActions } from './vendor.ts';

/** Every action type this server runs, by type: its details schema, its run and, for some, its check. */
export const actionDefinitions: Partial<Record<ActionType, ActionDefinition>> = {
  ...listingsActions,
  ...pricingActions,
  ...ordersActions,
  ...aplusActions,
  ...adsActions,
  ...mcfActions,
  ...vendorActions,
};
