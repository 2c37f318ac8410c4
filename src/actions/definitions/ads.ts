import { adsAccountActions } from './ads-accounts.ts';
import { adsBudgetRuleActions } from './ads-budget-rules.ts';
import { adsEntityActions } from './ads-entities.ts';
import type { ActionGroup } from './define.ts';

export { adsAccountActions } from './ads-accounts.ts';
export { adsBudgetRuleActions } from './ads-budget-rules.ts';
export { adsEntityActions } from './ads-entities.ts';

/**
 * The advertising types (Ads API, an ads connection): campaign management entities, portfolios, brands, SP
 * recommendations, budget rules.
 */
export const adsActions: ActionGroup = { ...adsEntityActions, ...adsAccountActions, ...adsBudgetRuleActions };
