import { z } from 'zod';
import type { ActionType } from '../../vocabulary/action-types.ts';
import { adsId, adsPost, day, defined, indexedOutcome, type ItemResult } from './ads-common.ts';
import { define, type ActionContext, type ActionDefinition, type ActionGroup } from './define.ts';
import { ConnectorError } from '../../connectors/connector-error.ts';
import { exactlyWhen, onlyWhen, relation, ruled } from './rules.ts';

type Kind = 'SP' | 'SB' | 'SD';
type RuleAnswer = { responses?: { code: string; details?: string; ruleId?: string }[] };

const ruleId = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'a budget rule id (a UUID)');
const rule = ruled(
  z
    .object({
      name: z.string().trim().min(1).max(355),
      ruleType: z.enum(['SCHEDULE', 'PERFORMANCE']).default('SCHEDULE'),
      startDate: day,
      endDate: day.optional(),
      recurrence: z.enum(['DAILY', 'WEEKLY']).default('DAILY'),
      daysOfWeek: z
        .array(z.enum(['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY']))
        .min(1)
        .max(7)
        .optional()
        .describe('With a WEEKLY recurrence.'),
      budgetIncreasePercent: z
        .number()
        .positive()
        .max(900)
        .describe('How much the rule raises the daily budget, in percent.'),
      performance: z
        .object({
          metric: z.enum(['ACOS', 'CTR', 'CVR', 'ROAS']),
          comparison: z.enum([
            'GREATER_THAN',
            'LESS_THAN',
            'EQUAL_TO',
            'GREATER_THAN_OR_EQUAL_TO',
            'LESS_THAN_OR_EQUAL_TO',
          ]),
          threshold: z.number().min(0),
        })
        .strict()
        .optional()
        .describe("A PERFORMANCE rule's condition."),
    })
    .strict(),
  relation((r) => !r.endDate || r.endDate >= r.startDate, 'endDate is not before startDate', 'is before startDate', [
    'endDate',
  ]),
  exactlyWhen('performance', 'ruleType', ['PERFORMANCE'], 'a PERFORMANCE rule needs performance, a SCHEDULE rule none'),
  onlyWhen('daysOfWeek', 'recurrence', ['WEEKLY'], 'only with a WEEKLY recurrence'),
);
type Rule = z.output<typeof rule>;

const compact = (d: string | undefined) => d?.replaceAll('-', '');
/** Our rule as the budget rules API's ruleDetails. */
const ruleDetails = (r: Rule) =>
  defined({
    name: r.name,
    ruleType: r.ruleType,
    budgetIncreaseBy: { type: 'PERCENT', value: r.budgetIncreasePercent },
    duration: { dateRangeTypeRuleDuration: defined({ startDate: compact(r.startDate), endDate: compact(r.endDate) }) },
    recurrence: defined({ type: r.recurrence, daysOfWeek: r.daysOfWeek }),
    performanceMeasureCondition: r.performance && {
      metricName: r.performance.metric,
      comparisonOperator: r.performance.comparison,
      threshold: r.performance.threshold,
    },
  });

/** A budget rules answer (`responses`, in request order, code Ok when done) as a batch outcome. */
const rulesOutcome = (answer: RuleAnswer, count: number) =>
  indexedOutcome(
    count,
    (index) => {
      const r = answer.responses?.[index];
      return (
        r && {
          index,
          ok: r.code === 'Ok',
          id: r.ruleId ?? null,
          ...(r.code === 'Ok'
            ? {}
            : { invalid: r.code !== 'INTERNAL_ERROR', errors: [{ code: r.code, message: r.details ?? '' }] }),
        }
      );
    },
    { ruleIds: (answer.responses ?? []).filter((r) => r.code === 'Ok').map((r) => r.ruleId) },
  );

/**
 * DisassociateAssociatedBudgetRuleFor…Campaigns for each rule: one DELETE each, a refused one failing only its item.
 */
async function disassociate(ctx: ActionContext, kind: Kind, campaignId: string, ruleIds: string[]) {
  const results: ItemResult[] = [];
  for (const [index, id] of ruleIds.entries()) {
    try {
      await ctx.ads().call(`DisassociateAssociatedBudgetRuleFor${kind}Campaigns`, {
        method: 'DELETE',
        path: `/${kind.toLowerCase()}/campaigns/${campaignId}/budgetRules/${encodeURIComponent(id)}`,
      });
      results.push({ index, ok: true, id });
    } catch (error) {
      if (!(error instanceof ConnectorError) || !['invalid-input', 'not-found'].includes(error.kind)) throw error;
      results.push({
        index,
        ok: false,
        id,
        invalid: true,
        errors: [{ code: error.code ?? error.kind, message: error.message }],
      });
    }
  }
  return indexedOutcome(ruleIds.length, (i) => results[i], {
    campaignId,
    ruleIds: results.filter((r) => r.ok).map((r) => r.id),
  });
}

const examples: Record<Kind, { campaignId: string; ruleId: string; linkedRuleId: string }> = {
  SP: {
    campaignId: '301442718905621',
    ruleId: '5bc531de-f000-44cf-8a86-54189bcdd380',
    linkedRuleId: '5bc531de-f000-44cf-8a86-54189bcdd381',
  },
  SB: {
    campaignId: '301442718905630',
    ruleId: '7d0e7a52-93c1-4b6e-8f2a-0c4d5e6f7a80',
    linkedRuleId: '7d0e7a52-93c1-4b6e-8f2a-0c4d5e6f7a81',
  },
  SD: {
    campaignId: '301442718905640',
    ruleId: '9e1f8b63-a4d2-4c7f-9a3b-1d5e6f708190',
    linkedRuleId: '9e1f8b63-a4d2-4c7f-9a3b-1d5e6f708191',
  },
};
const exampleRule = {
  name: 'Prime Day 2025 +25%',
  startDate: '2025-07-08',
  endDate: '2025-07-11',
  budgetIncreasePercent: 25,
};

/**
 * The four budget rule types of one ad product: create, update (the rule's details replaced), associate with a
 * campaign, disassociate.
 */
function budgetRuleActions(kind: Kind): Partial<Record<ActionType, ActionDefinition>> {
  const k = kind.toLowerCase();
  const ex = examples[kind];
  const campaignRules = { campaignId: adsId, ruleIds: z.array(ruleId).min(1).max(25) };
  return {
    [`MKT_ADS_${kind}_BUDGET_RULES_ADD`]: define(
      z
        .object({ rules: z.array(rule).min(1).max(25) })
        .strict()
        .meta({ examples: [{ rules: [exampleRule] }] }),
      async (ctx, d) =>
        rulesOutcome(
          await adsPost<RuleAnswer>(ctx, `CreateBudgetRulesFor${kind}Campaigns`, 'POST', `/${k}/budgetRules`, {
            budgetRulesDetails: d.rules.map(ruleDetails),
          }),
          d.rules.length,
        ),
    ),
    [`MKT_ADS_${kind}_BUDGET_RULES_UPDATE`]: define(
      z
        .object({
          rules: z
            .array(
              z
                .object({
                  ruleId,
                  ruleState: z.enum(['ACTIVE', 'PAUSED']).optional(),
                  rule: rule.describe("The rule's new details (all of them)."),
                })
                .strict(),
            )
            .min(1)
            .max(25),
        })
        .strict()
        .meta({
          examples: [
            {
              rules: [
                { ruleId: ex.ruleId, rule: { ...exampleRule, name: 'Prime Day 2025 +30%', budgetIncreasePercent: 30 } },
              ],
            },
          ],
        }),
      async (ctx, d) =>
        rulesOutcome(
          await adsPost<RuleAnswer>(ctx, `UpdateBudgetRulesFor${kind}Campaigns`, 'PUT', `/${k}/budgetRules`, {
            budgetRulesDetails: d.rules.map((r) =>
              defined({ ruleId: r.ruleId, ruleState: r.ruleState, ruleDetails: ruleDetails(r.rule) }),
            ),
          }),
          d.rules.length,
        ),
    ),
    [`MKT_ADS_${kind}_BUDGET_RULES_ASSOCIATE`]: define(
      z
        .object(campaignRules)
        .strict()
        .meta({ examples: [{ campaignId: ex.campaignId, ruleIds: [ex.ruleId] }] }),
      async (ctx, d) =>
        rulesOutcome(
          await adsPost<RuleAnswer>(
            ctx,
            `AssociateBudgetRulesFor${kind}Campaigns`,
            'POST',
            `/${k}/campaigns/${d.campaignId}/budgetRules`,
            { budgetRuleIds: d.ruleIds },
          ),
          d.ruleIds.length,
        ),
    ),
    [`MKT_ADS_${kind}_BUDGET_RULES_REMOVE`]: define(
      z
        .object(campaignRules)
        .strict()
        .describe('Disassociates the rules from the campaign (the rules remain).')
        .meta({ examples: [{ campaignId: ex.campaignId, ruleIds: [ex.linkedRuleId] }] }),
      (ctx, d) => disassociate(ctx, kind, d.campaignId, d.ruleIds),
    ),
  };
}

/**
 * Budget rules of Sponsored Products, Brands and Display (POST and PUT /{sp|sb|sd}/budgetRules, POST
 * /{sp|sb|sd}/campaigns/{campaignId}/budgetRules, DELETE
 * /{sp|sb|sd}/campaigns/{campaignId}/budgetRules/{budgetRuleId}):
 * every type is a batch answered per rule.
 */
export const adsBudgetRuleActions: ActionGroup = Object.assign(
  {},
  ...(['SP', 'SB', 'SD'] as const).map(budgetRuleActions),
);
