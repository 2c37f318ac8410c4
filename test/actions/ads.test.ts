import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionTypes } from '../../src/vocabulary/action-types.ts';
import { adsActions } from '../../src/actions/definitions/ads.ts';
import { exampleOf, type ActionDefinition } from '../../src/actions/definitions/define.ts';
import { ConnectorError } from '../../src/connectors/connector-error.ts';
import { actionBench } from '../helpers/action-context.ts';

type Bench = Awaited<ReturnType<typeof actionBench>>;
let bench: Bench;

beforeAll(async () => {
  bench = await actionBench();
});
afterAll(async () => {
  await bench.fake.close();
});

const def = (type: string): ActionDefinition => adsActions[type as keyof typeof adsActions]!;
const result = (r: unknown) => r as Record<string, any>;

describe('ads action types', () => {
  it('defines the 38 advertising types, each with one example', () => {
    const ads = actionTypes.filter((t) => t.startsWith('MKT_ADS_'));
    expect(ads).toHaveLength(38);
    expect(Object.keys(adsActions).sort()).toEqual([...ads].sort());
    for (const type of ads) expect((def(type).schema.meta() as { examples: unknown[] }).examples).toHaveLength(1);
  });

  it('runs every example to COMPLETED against the fake for the demo US advertiser', async () => {
    const results: Record<string, any> = {};
    for (const [type, definition] of Object.entries(adsActions)) {
      const outcome = await bench.run(definition!, exampleOf(definition!));
      expect({ type, status: outcome.status }).toEqual({ type, status: 'COMPLETED' });
      results[type] = outcome.result;
    }
    // Worked out from the seed: two SP campaigns, the clearance one archived by the REMOVE example, one added by ADD.
    expect(results.MKT_ADS_CAMPAIGNS_FIND.campaigns.map((c: any) => c.name).sort()).toEqual([
      'Acme Daypacks - Manual',
      'Acme Mugs - Manual',
    ]);
    expect(results.MKT_ADS_CAMPAIGNS_FIND.nextToken).toBeNull();
    expect(results.MKT_ADS_CAMPAIGNS_REMOVE.campaigns[0]).toMatchObject({
      campaignId: '301442718905622',
      state: 'ARCHIVED',
    });
    // Ad groups of campaign 301442718905621: the seeded Daypacks (bid raised to 0.95 by UPDATE) and the added one.
    expect(results.MKT_ADS_AD_GROUPS_FIND.adGroups.map((g: any) => [g.name, g.bid.defaultBid])).toEqual([
      ['Daypacks', 0.95],
      ['Daypacks - Exact', 0.85],
    ]);
    // Ads of ad group 402118839305512: the seeded daypack ad (paused by UPDATE) and the 40L pack added.
    expect(
      results.MKT_ADS_ADS_FIND.ads.map((a: any) => [
        a.creative.productCreative.productCreativeSettings.advertisedProduct.productId,
        a.state,
        a.campaignId,
      ]),
    ).toEqual([
      ['B0NB0P6V0A', 'PAUSED', '301442718905621'],
      ['B015AG461J', 'ENABLED', '301442718905621'],
    ]);
    expect(results.MKT_ADS_TARGETS_FIND.targets).toHaveLength(3);
    expect(results.MKT_ADS_TARGETS_FIND.targets.find((t: any) => t.targetId === '611093847561231').bid).toEqual({
      bid: 1.05,
    });
    expect(
      results.MKT_ADS_AD_ASSOCIATIONS_FIND.adAssociations
        .map((a: any) => [a.adAssociationId, a.weight, a.state])
        .slice(0, 2),
    ).toEqual([
      ['721093847561240', 70, 'ENABLED'],
      ['721093847561241', 40, 'ARCHIVED'],
    ]);
    expect(results.MKT_ADS_PORTFOLIOS_FIND.portfolios.map((p: any) => p.name)).toEqual([
      'Acme Core 2025',
      'Acme Summer',
    ]);
    expect(results.MKT_ADS_BRANDS_FIND).toEqual({
      brands: [{ brandId: 'ENTITY1ACMEUS-BRAND', brandEntityId: 'ENTITY25977BR', brandRegistryName: 'Acme Outdoor' }],
      nextToken: null,
    });
    expect(
      results.MKT_ADS_SP_BID_RECOMMENDATIONS_FIND.bidRecommendations[0].bidRecommendationsForTargetingExpressions,
    ).toHaveLength(2);
    expect(results.MKT_ADS_SP_TARGET_RECOMMENDATIONS_FIND.recommendations).toHaveLength(5);
    expect(results.MKT_ADS_SP_TARGET_RECOMMENDATIONS_FIND.nextToken).toEqual(expect.any(String));
    expect(results.MKT_ADS_SP_BUDGET_RULES_ASSOCIATE).toEqual({
      ruleIds: ['5bc531de-f000-44cf-8a86-54189bcdd380'],
      items: [{ index: 0, ok: true, id: '5bc531de-f000-44cf-8a86-54189bcdd380' }],
    });
    expect(results.MKT_ADS_SD_BUDGET_RULES_REMOVE).toMatchObject({
      campaignId: '301442718905640',
      ruleIds: ['9e1f8b63-a4d2-4c7f-9a3b-1d5e6f708191'],
    });
  });

  it('sees an update in a later find, and pages with nextToken', async () => {
    const update = await bench.run(def('MKT_ADS_CAMPAIGNS_UPDATE'), {
      campaigns: [{ campaignId: '301442718905621', state: 'PAUSED', dailyBudget: { amount: 12.5, currency: 'USD' } }],
    });
    expect(update.status).toBe('COMPLETED');
    const found = await bench.run(def('MKT_ADS_CAMPAIGNS_FIND'), {
      adProduct: 'SPONSORED_PRODUCTS',
      states: ['PAUSED'],
    });
    const campaigns = result(found.result).campaigns;
    expect(
      campaigns.map((c: any) => [c.campaignId, c.budgets[0].budgetValue.monetaryBudgetValue.monetaryBudget.value]),
    ).toEqual([['301442718905621', 12.5]]);

    const first = await bench.run(def('MKT_ADS_CAMPAIGNS_FIND'), { adProduct: 'SPONSORED_PRODUCTS', maxResults: 2 });
    expect(result(first.result).campaigns).toHaveLength(2);
    const second = await bench.run(def('MKT_ADS_CAMPAIGNS_FIND'), {
      adProduct: 'SPONSORED_PRODUCTS',
      maxResults: 2,
      nextToken: result(first.result).nextToken,
    });
    // Three SP campaigns in all (two seeded, one added by the ADD example): one left on the second page.
    expect(result(second.result)).toMatchObject({ campaigns: [{ name: 'Acme Mugs - Manual' }], nextToken: null });
    const brands = await bench.run(def('MKT_ADS_CAMPAIGNS_FIND'), { adProduct: 'SPONSORED_BRANDS' });
    expect(result(brands.result).campaigns.map((c: any) => c.campaignId)).toEqual(['301442718905630']);
  });

  it('keeps each advertiser apart: the DE seller finds its own campaigns', async () => {
    const de = bench.sellers[1]!;
    const found = await bench.run(def('MKT_ADS_CAMPAIGNS_FIND'), { adProduct: 'SPONSORED_DISPLAY' }, de);
    // DE profile 2950183366471204: ids shifted by (2950183366471204 % 997 + 1) * 1,000,000.
    const shift = (2950183366471204 % 997) + 1;
    expect(result(found.result).campaigns.map((c: any) => [c.campaignId, c.marketplaces])).toEqual([
      [String(301442718905640 + shift * 1_000_000), ['DE']],
    ]);
  });

  it('reports a batch the marketplace partly refused as PARTIALLY_COMPLETED', async () => {
    const outcome = await bench.run(def('MKT_ADS_CAMPAIGNS_ADD'), {
      adProduct: 'SPONSORED_PRODUCTS',
      campaigns: [
        { name: 'Acme Towels - Auto', dailyBudget: { amount: 8, currency: 'USD' }, autoCreateTargets: true },
        { name: 'Acme Daypacks - Manual', dailyBudget: { amount: 8, currency: 'USD' } },
      ],
    });
    expect(outcome.status).toBe('PARTIALLY_COMPLETED');
    const r = result(outcome.result);
    expect(r.campaigns.map((c: any) => [c.name, c.autoCreationSettings])).toEqual([
      ['Acme Towels - Auto', { autoCreateTargets: true }],
    ]);
    expect(r.items[1]).toMatchObject({
      index: 1,
      ok: false,
      errors: [{ code: 'FIELD_VALUE_NOT_UNIQUE', fieldLocation: 'name' }],
    });
  });

  it('is BLOCKED_INVALID_INPUT when every item is refused, and raises invalid-input on a refused request', async () => {
    const outcome = await bench.run(def('MKT_ADS_TARGETS_UPDATE'), {
      targets: [{ targetId: '999999999999999', state: 'PAUSED' }],
    });
    expect(outcome.status).toBe('BLOCKED_INVALID_INPUT');
    expect(result(outcome.result).items[0].errors[0].code).toBe('RESOURCE_ID_NOT_FOUND');

    // The SB REMOVE example already disassociated rule …7a81 from campaign 301442718905630: a second time is a 404.
    const rules = await bench.run(def('MKT_ADS_SB_BUDGET_RULES_REMOVE'), {
      campaignId: '301442718905630',
      ruleIds: ['7d0e7a52-93c1-4b6e-8f2a-0c4d5e6f7a81'],
    });
    expect(rules.status).toBe('BLOCKED_INVALID_INPUT');
    expect(result(rules.result).items[0]).toMatchObject({ ok: false, errors: [{ code: '404' }] });

    // Ad group 402118839305530 is a Sponsored Brands ad group of another campaign: the recommendation request is
    // refused.
    const refused = bench.run(def('MKT_ADS_SP_BID_RECOMMENDATIONS_FIND'), {
      campaignId: '301442718905621',
      adGroupId: '402118839305530',
      targetingExpressions: [{ type: 'CLOSE_MATCH' }],
    });
    await expect(refused).rejects.toBeInstanceOf(ConnectorError);
    await expect(refused).rejects.toMatchObject({ kind: 'invalid-input', status: 400 });
  });

  it('takes at most 25 targets in an update, and finds on exactly one ad product', () => {
    const targets = Array.from({ length: 26 }, (_, i) => ({ targetId: String(611093847561300 + i), state: 'PAUSED' }));
    expect(def('MKT_ADS_TARGETS_UPDATE').schema.safeParse({ targets }).success).toBe(false);
    expect(def('MKT_ADS_TARGETS_UPDATE').schema.safeParse({ targets: targets.slice(0, 25) }).success).toBe(true);
    expect(def('MKT_ADS_ADS_FIND').schema.safeParse({}).success).toBe(false);
    expect(
      def('MKT_ADS_ADS_FIND').schema.safeParse({ adProduct: ['SPONSORED_PRODUCTS', 'SPONSORED_BRANDS'] }).success,
    ).toBe(false);
  });
});
