import { actionTypes, type ActionType } from '../../vocabulary/action-types.ts';
import { adsActions } from './ads.ts';
import { aplusActions } from './aplus.ts';
import type { ActionDefinition } from './define.ts';
import { feedActions } from './feeds.ts';
import { listingsActions } from './listings.ts';
import { mcfActions } from './mcf.ts';
import { ordersActions } from './orders.ts';
import { pricingActions } from './pricing.ts';
import { vendorActions } from './vendor.ts';

const groups = {
  ...listingsActions,
  ...pricingActions,
  ...ordersActions,
  ...feedActions,
  ...aplusActions,
  ...adsActions,
  ...mcfActions,
  ...vendorActions,
};
const missing = actionTypes.filter((type) => !groups[type]);
if (missing.length > 0) throw new Error(`action types without a definition: ${missing.join(', ')}`);

/** Every action type of the spec, by type: its details schema, its run and, for some, its check. */
export const actionDefinitions = groups as Record<ActionType, ActionDefinition>;
