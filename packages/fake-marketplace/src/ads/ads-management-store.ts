import { ASINS } from '../data/catalog.ts';
import type { FakeSeller } from '../data/sellers.ts';

/**
 * A campaign management record as the Ads API answers it (campaign, ad group, ad, target, ad association, portfolio).
 */
export type AdsRecord = Record<string, unknown>;

/** The unified (Ads API v1) entities of campaign management. */
export type AdsEntityName = 'campaigns' | 'adGroups' | 'ads' | 'targets' | 'adAssociations';

/** A budget rule of one ad product (sp, sb or sd), as GET /{kind}/budgetRules lists it. */
export interface BudgetRule {
  ruleId: string;
  kind: 'sp' | 'sb' | 'sd';
  ruleState: 'ACTIVE' | 'PAUSED';
  ruleStatus: string;
  ruleDetails: Record<string, unknown>;
  createdDate: number;
  lastUpdatedDate: number;
}

/** One advertiser's campaign management state. */
export interface AdsProfileState {
  entities: Record<AdsEntityName, Map<string, AdsRecord>>;
  portfolios: Map<string, AdsRecord>;
  budgetRules: Map<string, BudgetRule>;
  /** Budget rules associated with campaigns, as `campaignId/ruleId`. */
  ruleLinks: Set<string>;
}

/** The seeded ids of the demo US advertiser (profile 3184726611025977); other advertisers get them shifted. */
export const seedIds = {
  spCampaign: '301442718905621',
  spClearanceCampaign: '301442718905622',
  sbCampaign: '301442718905630',
  sdCampaign: '301442718905640',
  spAdGroup: '402118839305512',
  spClearanceAdGroup: '402118839305513',
  sbAdGroup: '402118839305530',
  spAd: '512093847561230',
  spClearanceAd: '512093847561231',
  sbAd: '512093847561240',
  sbSecondAd: '512093847561241',
  keywordTarget: '611093847561231',
  clearanceTarget: '611093847561232',
  productTarget: '611093847561233',
  association: '721093847561240',
  clearanceAssociation: '721093847561241',
  portfolio: '274923182315193',
  spRule: '5bc531de-f000-44cf-8a86-54189bcdd380',
  spLinkedRule: '5bc531de-f000-44cf-8a86-54189bcdd381',
  sbRule: '7d0e7a52-93c1-4b6e-8f2a-0c4d5e6f7a80',
  sbLinkedRule: '7d0e7a52-93c1-4b6e-8f2a-0c4d5e6f7a81',
  sdRule: '9e1f8b63-a4d2-4c7f-9a3b-1d5e6f708190',
  sdLinkedRule: '9e1f8b63-a4d2-4c7f-9a3b-1d5e6f708191',
} as const;

const DEMO_US_PROFILE = 3184726611025977;
const iso = (ms: number) => new Date(ms).toISOString();
const dailyBudget = (value: number) => [
  {
    budgetType: 'MONETARY',
    recurrenceTimePeriod: 'DAILY',
    budgetValue: { monetaryBudgetValue: { monetaryBudget: { value } } },
  },
];
const productCreative = (asin: string) => ({
  productCreative: { productCreativeSettings: { advertisedProduct: { productId: asin, productIdType: 'ASIN' } } },
});

/**
 * Seeds an advertiser: SP, SB and SD campaigns with ad groups, ads, targets, associations, a portfolio and budget
 * rules.
 */
function seed(seller: FakeSeller, at: number): AdsProfileState {
  const shift = seller.ads!.profileId === DEMO_US_PROFILE ? 0n : BigInt((seller.ads!.profileId % 997) + 1) * 1_000_000n;
  const tag = String(shift / 1_000_000n).padStart(4, '0');
  const id = (key: keyof typeof seedIds): string => {
    const value = seedIds[key];
    if (shift === 0n) return value;
    return value.includes('-') ? `${value.slice(0, 9)}${tag}${value.slice(13)}` : String(BigInt(value) + shift);
  };
  const stamp = { creationDateTime: iso(at - 30 * 86_400_000), lastUpdatedDateTime: iso(at - 86_400_000) };
  const scope = { marketplaceScope: 'SINGLE_MARKETPLACE', marketplaces: [seller.countryCode] };
  const campaign = (key: keyof typeof seedIds, adProduct: string, name: string, budget: number) => ({
    campaignId: id(key),
    adProduct,
    name,
    state: 'ENABLED',
    ...scope,
    startDateTime: iso(at - 30 * 86_400_000),
    budgets: dailyBudget(budget),
    optimizations: { bidSettings: { bidStrategy: 'SALES_DOWN_ONLY' } },
    ...stamp,
  });
  const adGroup = (key: keyof typeof seedIds, campaignKey: keyof typeof seedIds, adProduct: string, name: string) => ({
    adGroupId: id(key),
    campaignId: id(campaignKey),
    adProduct,
    name,
    state: 'ENABLED',
    bid: { defaultBid: 0.75 },
    ...scope,
    ...stamp,
  });
  const ad = (
    key: keyof typeof seedIds,
    groupKey: keyof typeof seedIds,
    campaignKey: keyof typeof seedIds,
    adProduct: string,
    sku: string,
  ) => ({
    adId: id(key),
    adGroupId: id(groupKey),
    campaignId: id(campaignKey),
    adProduct,
    adType: 'PRODUCT_AD',
    state: 'ENABLED',
    creative: productCreative(ASINS.get(sku)!),
    ...scope,
    ...stamp,
  });
  const keyword = (
    key: keyof typeof seedIds,
    groupKey: keyof typeof seedIds,
    campaignKey: keyof typeof seedIds,
    text: string,
  ) => ({
    targetId: id(key),
    adGroupId: id(groupKey),
    campaignId: id(campaignKey),
    adProduct: 'SPONSORED_PRODUCTS',
    negative: false,
    state: 'ENABLED',
    targetType: 'KEYWORD',
    bid: { bid: 0.9 },
    targetDetails: { keywordTarget: { keyword: text, matchType: 'PHRASE' } },
    ...scope,
    ...stamp,
  });
  const byId = (field: string, records: AdsRecord[]) => new Map(records.map((r) => [String(r[field]), r]));
  const rule = (key: keyof typeof seedIds, kind: BudgetRule['kind'], name: string): BudgetRule => ({
    ruleId: id(key),
    kind,
    ruleState: 'ACTIVE',
    ruleStatus: 'ACTIVE',
    createdDate: at - 20 * 86_400_000,
    lastUpdatedDate: at - 20 * 86_400_000,
    ruleDetails: {
      name,
      ruleType: 'SCHEDULE',
      budgetIncreaseBy: { type: 'PERCENT', value: 20 },
      duration: { dateRangeTypeRuleDuration: { startDate: '20251121', endDate: '20251202' } },
      recurrence: { type: 'DAILY' },
    },
  });
  return {
    entities: {
      campaigns: byId('campaignId', [
        campaign('spCampaign', 'SPONSORED_PRODUCTS', 'Acme Daypacks - Manual', 40),
        campaign('spClearanceCampaign', 'SPONSORED_PRODUCTS', 'Acme Clearance - Auto', 10),
        campaign('sbCampaign', 'SPONSORED_BRANDS', 'Acme Brand - Packs', 25),
        campaign('sdCampaign', 'SPONSORED_DISPLAY', 'Acme Retargeting - Views', 15),
      ]),
      adGroups: byId('adGroupId', [
        adGroup('spAdGroup', 'spCampaign', 'SPONSORED_PRODUCTS', 'Daypacks'),
        adGroup('spClearanceAdGroup', 'spClearanceCampaign', 'SPONSORED_PRODUCTS', 'Clearance'),
        adGroup('sbAdGroup', 'sbCampaign', 'SPONSORED_BRANDS', 'Brand packs'),
      ]),
      ads: byId('adId', [
        ad('spAd', 'spAdGroup', 'spCampaign', 'SPONSORED_PRODUCTS', 'ACM-PACK-DAY-BLK'),
        ad('spClearanceAd', 'spClearanceAdGroup', 'spClearanceCampaign', 'SPONSORED_PRODUCTS', 'ACM-MUG-16-RED'),
        ad('sbAd', 'sbAdGroup', 'sbCampaign', 'SPONSORED_BRANDS', 'ACM-PACK-40L-GRY'),
        ad('sbSecondAd', 'sbAdGroup', 'sbCampaign', 'SPONSORED_BRANDS', 'ACM-PACK-DAY-BLK'),
      ]),
      targets: byId('targetId', [
        keyword('keywordTarget', 'spAdGroup', 'spCampaign', 'hiking daypack'),
        keyword('clearanceTarget', 'spClearanceAdGroup', 'spClearanceCampaign', 'travel mug'),
        {
          ...keyword('productTarget', 'spAdGroup', 'spCampaign', ''),
          targetType: 'PRODUCT',
          targetDetails: {
            productTarget: {
              product: { productId: ASINS.get('ACM-PACK-40L-GRY') },
              productIdType: 'ASIN',
              matchType: 'PRODUCT_EXACT',
            },
          },
        },
      ]),
      adAssociations: byId('adAssociationId', [
        {
          adAssociationId: id('association'),
          adGroupId: id('sbAdGroup'),
          adId: id('sbAd'),
          state: 'ENABLED',
          weight: 60,
          ...stamp,
        },
        {
          adAssociationId: id('clearanceAssociation'),
          adGroupId: id('sbAdGroup'),
          adId: id('sbSecondAd'),
          state: 'ENABLED',
          weight: 40,
          ...stamp,
        },
      ]),
    },
    portfolios: byId('portfolioId', [
      {
        portfolioId: id('portfolio'),
        name: 'Acme Core',
        state: 'ENABLED',
        inBudget: true,
        budget: { policy: 'NO_CAP', currencyCode: seller.currency },
      },
    ]),
    budgetRules: new Map(
      [
        rule('spRule', 'sp', 'Prime Day +20%'),
        rule('spLinkedRule', 'sp', 'Black Friday +20%'),
        rule('sbRule', 'sb', 'SB Prime Day +20%'),
        rule('sbLinkedRule', 'sb', 'SB Black Friday +20%'),
        rule('sdRule', 'sd', 'SD Prime Day +20%'),
        rule('sdLinkedRule', 'sd', 'SD Black Friday +20%'),
      ].map((r) => [r.ruleId, r]),
    ),
    ruleLinks: new Set([
      `${id('spCampaign')}/${id('spLinkedRule')}`,
      `${id('sbCampaign')}/${id('sbLinkedRule')}`,
      `${id('sdCampaign')}/${id('sdLinkedRule')}`,
    ]),
  };
}

/**
 * The campaign management state of every advertiser of one fake marketplace, seeded when first asked for; its id
 * sequence.
 */
export class AdsManagementStore {
  readonly #profiles = new Map<number, AdsProfileState>();
  #next = 0;

  /** The advertiser's state (by its profile). */
  of(seller: FakeSeller, at: number): AdsProfileState {
    const profileId = seller.ads!.profileId;
    if (!this.#profiles.has(profileId)) this.#profiles.set(profileId, seed(seller, at));
    return this.#profiles.get(profileId)!;
  }

  /** A new entity id, numeric like the Ads API's (15 digits). */
  newId(): string {
    return String(331_000_000_000_000 + ++this.#next * 7_919);
  }
}
