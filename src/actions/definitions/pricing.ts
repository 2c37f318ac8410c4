import type { ActionGroup } from './define.ts';

export const pricingActions: ActionGroup = {};
