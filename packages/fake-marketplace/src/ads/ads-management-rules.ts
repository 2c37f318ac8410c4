import { randomUUID } from 'node:crypto';
import type { AdsManagementStore, BudgetRule } from './ads-management-store.ts';
import { AdsError, type AdsContext, type AdsRoute } from './ads-routes.ts';

type Kind = BudgetRule['kind'];
type Answer = { code: string; details: string; ruleId?: string };
const KINDS: Record<Kind, { product: string; name: string }> = {
  sp: { product: 'SPONSORED_PRODUCTS', name: 'SP' },
  sb: { product: 'SPONSORED_BRANDS', name: 'SB' },
  sd: { product: 'SPONSORED_DISPLAY', name: 'SD' },
};

/** Why a rule's details are refused (name, type, increase, duration, recurrence, performance condition), or null. */
function ruleProblem(d: Record<string, any> | undefined): string | null {
  if (!d || typeof d.name !== 'string' || d.name.trim() === '') return 'name is required';
  if (d.ruleType !== 'SCHEDULE' && d.ruleType !== 'PERFORMANCE') return 'ruleType must be SCHEDULE or PERFORMANCE';
  if (d.budgetIncreaseBy?.type !== 'PERCENT' || !(d.budgetIncreaseBy.value > 0))
    return 'budgetIncreaseBy must be a positive PERCENT';
  const range = d.duration?.dateRangeTypeRuleDuration;
  if (
    !range ||
    !/^\d{8}$/.test(String(range.startDate)) ||
    (range.endDate !== undefined && !/^\d{8}$/.test(String(range.endDate)))
  )
    return 'duration.dateRangeTypeRuleDuration needs startDate (and endDate) as YYYYMMDD';
  if (range.endDate !== undefined && range.endDate < range.startDate) return 'endDate is before startDate';
  if (d.recurrence?.type !== 'DAILY' && d.recurrence?.type !== 'WEEKLY')
    return 'recurrence.type must be DAILY or WEEKLY';
  if (d.ruleType === 'PERFORMANCE' && !d.performanceMeasureCondition)
    return 'a PERFORMANCE rule needs performanceMeasureCondition';
  return null;
}

const listOf = (ctx: AdsContext, key: string): any[] => {
  const list = (ctx.body as Record<string, unknown> | undefined)?.[key];
  if (!Array.isArray(list) || list.length === 0 || list.length > 100)
    throw new AdsError(400, `${key} must list 1 to 100 items`);
  return list;
};
const answer = (responses: Answer[]) => ({ status: 207, body: { responses } });

/** POST /{kind}/budgetRules: creates rules, answered `{ responses: [{ code, details, ruleId }] }` in order. */
function createRules(store: AdsManagementStore, kind: Kind, ctx: AdsContext) {
  const state = store.of(ctx.seller, ctx.at);
  return answer(
    listOf(ctx, 'budgetRulesDetails').map((details) => {
      const refused = ruleProblem(details);
      if (refused) return { code: 'INVALID_ARGUMENT', details: refused };
      const ruleId = randomUUID();
      state.budgetRules.set(ruleId, {
        ruleId,
        kind,
        ruleState: 'ACTIVE',
        ruleStatus: 'ACTIVE',
        ruleDetails: details,
        createdDate: ctx.at,
        lastUpdatedDate: ctx.at,
      });
      return { code: 'Ok', details: 'Budget rule created', ruleId };
    }),
  );
}

/** PUT /{kind}/budgetRules: replaces each named rule's details (and state). */
function updateRules(store: AdsManagementStore, kind: Kind, ctx: AdsContext) {
  const state = store.of(ctx.seller, ctx.at);
  return answer(
    listOf(ctx, 'budgetRulesDetails').map((item) => {
      const rule = state.budgetRules.get(String(item?.ruleId));
      if (!rule || rule.kind !== kind)
        return { code: 'NOT_FOUND', details: `Budget rule ${String(item?.ruleId)} not found`, ruleId: item?.ruleId };
      const refused = ruleProblem(item.ruleDetails);
      if (refused) return { code: 'INVALID_ARGUMENT', details: refused, ruleId: rule.ruleId };
      Object.assign(
        rule,
        { ruleDetails: item.ruleDetails, lastUpdatedDate: ctx.at },
        item.ruleState === 'ACTIVE' || item.ruleState === 'PAUSED' ? { ruleState: item.ruleState } : {},
      );
      return { code: 'Ok', details: 'Budget rule updated', ruleId: rule.ruleId };
    }),
  );
}

/** The campaign of this ad product named in the path, or 404. */
function campaignOf(store: AdsManagementStore, kind: Kind, ctx: AdsContext) {
  const campaign = store.of(ctx.seller, ctx.at).entities.campaigns.get(ctx.params[0]!);
  if (!campaign || campaign.adProduct !== KINDS[kind].product)
    throw new AdsError(404, `Campaign ${ctx.params[0]} not found`);
  return String(campaign.campaignId);
}

/** POST /{kind}/campaigns/{campaignId}/budgetRules: associates rules of this ad product with the campaign. */
function associateRules(store: AdsManagementStore, kind: Kind, ctx: AdsContext) {
  const campaignId = campaignOf(store, kind, ctx);
  const state = store.of(ctx.seller, ctx.at);
  return answer(
    listOf(ctx, 'budgetRuleIds').map((ruleId) => {
      const rule = state.budgetRules.get(String(ruleId));
      if (!rule || rule.kind !== kind)
        return { code: 'NOT_FOUND', details: `Budget rule ${String(ruleId)} not found`, ruleId };
      state.ruleLinks.add(`${campaignId}/${rule.ruleId}`);
      return { code: 'Ok', details: 'Budget rule associated', ruleId: rule.ruleId };
    }),
  );
}

/**
 * DELETE /{kind}/campaigns/{campaignId}/budgetRules/{budgetRuleId}: disassociates one rule (404 when it is not
 * associated).
 */
function disassociateRule(store: AdsManagementStore, kind: Kind, ctx: AdsContext) {
  const campaignId = campaignOf(store, kind, ctx);
  const links = store.of(ctx.seller, ctx.at).ruleLinks;
  if (!links.delete(`${campaignId}/${ctx.params[1]}`))
    throw new AdsError(404, `Budget rule ${ctx.params[1]} is not associated with campaign ${campaignId}`);
  return { status: 200, body: {} };
}

/**
 * The budget rules of Sponsored Products, Brands and Display: create, update, associate with and disassociate from
 * campaigns.
 */
export function adsBudgetRuleRoutes(store: AdsManagementStore): AdsRoute[] {
  return (Object.keys(KINDS) as Kind[]).flatMap((kind) => {
    const n = KINDS[kind].name;
    return [
      {
        method: 'POST',
        pattern: new RegExp(`^/${kind}/budgetRules$`),
        operation: `CreateBudgetRulesFor${n}Campaigns`,
        contentType: 'application/json',
        handler: (ctx: AdsContext) => createRules(store, kind, ctx),
      },
      {
        method: 'PUT',
        pattern: new RegExp(`^/${kind}/budgetRules$`),
        operation: `UpdateBudgetRulesFor${n}Campaigns`,
        contentType: 'application/json',
        handler: (ctx: AdsContext) => updateRules(store, kind, ctx),
      },
      {
        method: 'POST',
        pattern: new RegExp(`^/${kind}/campaigns/(\\d+)/budgetRules$`),
        operation: `AssociateBudgetRulesFor${n}Campaigns`,
        contentType: 'application/json',
        handler: (ctx: AdsContext) => associateRules(store, kind, ctx),
      },
      {
        method: 'DELETE',
        pattern: new RegExp(`^/${kind}/campaigns/(\\d+)/budgetRules/([^/]+)$`),
        operation: `DisassociateAssociatedBudgetRuleFor${n}Campaigns`,
        handler: (ctx: AdsContext) => disassociateRule(store, kind, ctx),
      },
    ];
  });
}
