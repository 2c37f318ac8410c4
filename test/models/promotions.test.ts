import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { runModels } from '../../src/models/run-models.ts';
import { DE, land, makeHome, rows, US } from '../helpers/home.ts';
import { writeJson } from '../helpers/profit.ts';

const usContext = {
  marketplace_id: US.marketplaceId,
  marketplace_country_code: 'US',
  marketplace_country_name: 'United States',
  seller_or_vendor_id: US.id,
  seller_or_vendor_name: 'Test US',
  marketplace_seller_id: 'SELLERUS',
};
const deContext = {
  marketplace_id: DE.marketplaceId,
  marketplace_country_code: 'DE',
  marketplace_country_name: 'Germany',
  seller_or_vendor_id: DE.id,
  seller_or_vendor_name: 'Test DE',
  marketplace_seller_id: null,
};

/** A promotion with every field of docs/promotions-format.md. */
const coupon = {
  promotionId: 'PRM-2',
  trackingId: 'TRK-2',
  promotionTitle: '$15 off the tent',
  promotionType: 'COUPON',
  couponType: 'MONEY_OFF',
  status: 'SCHEDULED',
  startDate: '2026-10-20',
  endDate: '2026-11-03',
  eventId: 'EVT-PD',
  budgetType: 'SPEND',
  budgetValue: 1500,
  budgetCurrency: 'USD',
  selectionId: 'SEL-2',
  selectionRevisionId: 4,
  selectionType: 'ITEMS',
  benefitDiscountType: 'AMOUNT_OFF',
  benefitAmountOff: 15,
  benefitCurrency: 'USD',
  benefitPerCustomerUses: 1,
  benefitStacking: 'STACKABLE',
  benefitQuantity: 1,
  purchaseReqQuantityType: 'AT_LEAST',
  purchaseReqQuantity: 2,
  claimCodeType: 'ONE_TIME',
  claimCodeValue: 'TENT15',
  displayOnWebsite: 'DETAIL_PAGE',
  upfrontFeeAmount: 5,
  upfrontFeeCurrency: 'USD',
  upfrontFeeFrequency: 'PER_PROMOTION',
  variableFeePct: 2.5,
  variableFeeCapAmount: 200,
  variableFeeCapCurrency: 'USD',
  latestRevisionStatus: 'PENDING_REVIEW',
  createdDate: '2026-10-12',
  lastUpdatedDate: '2026-10-13',
  issues: [{ code: 'PRICE_TOO_HIGH' }],
  customerSegments: [{ segment: 'PRIME' }],
  additionalTiers: [{ quantity: 3, amountOff: 25 }],
  items: [
    {
      asin: 'B08FCHRZNY',
      sku: 'TENT-1',
      benefitType: 'DISCOUNT',
      benefitDiscountType: 'AMOUNT_OFF',
      benefitAmountOff: 15,
      benefitDiscountCurrency: 'USD',
      budgetType: 'SPEND',
      budgetValue: 1500,
      budgetCurrency: 'USD',
      issues: [{ code: 'LOW_STOCK' }],
    },
  ],
};

/** A percent-off promotion whose end and creation are date-times (UTC) that fall on the previous day in Los Angeles. */
const kitchen = (version: { status: string; lastUpdatedDate: string; items: object[] }) => ({
  promotionId: 'PRM-1',
  promotionTitle: 'Camp kitchen',
  promotionType: 'PERCENT_OFF',
  selectionType: 'ITEMS',
  benefitDiscountType: 'PERCENT_OFF',
  benefitPercentOff: 10,
  startDate: '2026-10-01',
  endDate: '2026-11-01T06:59:59Z',
  createdDate: '2026-09-23T03:00:00Z',
  ...version,
});

const nulls = (names: string[]) => Object.fromEntries(names.map((n) => [n, null]));
const promotionColumns = [
  'tracking_id',
  'promotion_title',
  'promotion_type',
  'coupon_type',
  'status',
  'start_date',
  'end_date',
  'event_id',
  'budget_type',
  'budget_value',
  'budget_currency',
  'selection_id',
  'selection_revision_id',
  'selection_type',
  'benefit_discount_type',
  'benefit_percent_off',
  'benefit_amount_off',
  'benefit_currency',
  'benefit_per_customer_uses',
  'benefit_stacking',
  'benefit_quantity',
  'purchase_req_quantity_type',
  'purchase_req_quantity',
  'claim_code_type',
  'claim_code_value',
  'display_on_website',
  'upfront_fee_amount',
  'upfront_fee_currency',
  'upfront_fee_frequency',
  'variable_fee_pct',
  'variable_fee_cap_amount',
  'variable_fee_cap_currency',
  'latest_revision_status',
  'created_date',
  'last_updated_date',
  'issues',
  'customer_segments',
  'additional_tiers',
];
const itemColumns = [
  'benefit_type',
  'benefit_discount_type',
  'benefit_percent_off',
  'benefit_amount_off',
  'benefit_discount_currency',
  'benefit_fixed_price',
  'benefit_fixed_price_currency',
  'benefit_per_customer_uses',
  'budget_type',
  'budget_value',
  'budget_currency',
  'issues',
];

describe('mkt_promotions and mkt_promotion_items', () => {
  let wh: Warehouse;
  let dir: string;
  let deLandedAt: string;
  beforeEach(async () => {
    ({ wh, dir } = await makeHome());
    const landOk = async (connection: typeof US, name: string, document: unknown) => {
      const result = await land(wh, 'promotions', connection, writeJson(dir, name, document));
      expect(result.status).toBe('landed');
      return result.status === 'landed' ? result.fileId : '';
    };
    await landOk(US, 'sync-10.json', {
      syncedAt: '2026-10-10T00:00:00Z',
      promotions: [
        kitchen({
          status: 'ACTIVE',
          lastUpdatedDate: '2026-09-28',
          items: [
            { asin: 'B0E54BJT7R', sku: 'CAN-1', benefitPercentOff: 10 },
            { asin: 'B0XCJW09HM', sku: 'FLT-1', benefitPercentOff: 15 },
          ],
        }),
        coupon,
      ],
    });
    // A newer sync: PRM-1 now gives 12 % on the canister only.
    await landOk(US, 'sync-12.json', {
      syncedAt: '2026-10-12T00:00:00Z',
      promotions: [
        kitchen({
          status: 'ACTIVE',
          lastUpdatedDate: '2026-10-11',
          items: [{ asin: 'B0E54BJT7R', sku: 'CAN-1', benefitType: 'DISCOUNT', benefitPercentOff: 12 }],
        }),
      ],
    });
    // An older export landed last: its PRM-1 does not replace the newer one; PRM-3 is only here.
    await landOk(US, 'sync-09.json', {
      syncedAt: '2026-10-09T00:00:00Z',
      promotions: [
        kitchen({ status: 'DRAFT', lastUpdatedDate: '2026-09-20', items: [] }),
        { promotionId: 'PRM-3', status: 'ENDED' },
      ],
    });
    // No syncedAt at all: the landing time stands in.
    const deFile = await landOk(DE, 'de.json', {
      promotions: [
        {
          promotionId: 'PRM-DE-1',
          promotionType: 'PRICE_DISCOUNT',
          status: 'ACTIVE',
          startDate: '2026-10-05',
          endDate: '2026-10-25',
          selectionType: 'ITEMS',
          items: [
            {
              asin: 'B07JWEC5W0',
              sku: 'SOCK-1',
              benefitDiscountType: 'FIXED_PRICE',
              benefitFixedPrice: '17.99',
              benefitFixedPriceCurrency: 'EUR',
              benefitPerCustomerUses: 2,
            },
          ],
        },
      ],
    });
    deLandedAt = String(
      (
        await rows(wh, `select timezone('UTC', landed_at)::varchar as t from control.landed_files where id = $id`, {
          id: deFile,
        })
      )[0]!.t,
    );
    const results = await runModels(wh, { select: ['marts.mkt_promotions', 'marts.mkt_promotion_items'] });
    expect(results.filter((r) => r.status !== 'success' || r.findings.length > 0)).toEqual([]);
  });
  afterEach(async () => wh.close());

  it('mkt_promotions: the latest synced version of each promotion, every field mapped, dates local to the marketplace', async () => {
    expect(await rows(wh, `select * from marts.mkt_promotions order by seller_or_vendor_name, promotion_id`)).toEqual([
      {
        ...deContext,
        promotion_id: 'PRM-DE-1',
        ...nulls(promotionColumns),
        promotion_type: 'PRICE_DISCOUNT',
        status: 'ACTIVE',
        start_date: '2026-10-05',
        end_date: '2026-10-25',
        selection_type: 'ITEMS',
        last_synced_at: deLandedAt,
      },
      {
        ...usContext,
        promotion_id: 'PRM-1',
        ...nulls(promotionColumns),
        promotion_title: 'Camp kitchen',
        promotion_type: 'PERCENT_OFF',
        status: 'ACTIVE',
        // 2026-11-01 06:59:59 UTC is 23:59:59 on 31 October in Los Angeles (still daylight time); 2026-09-23 03:00 UTC
        // is 22 September there.
        start_date: '2026-10-01',
        end_date: '2026-10-31',
        created_date: '2026-09-22',
        last_updated_date: '2026-10-11',
        selection_type: 'ITEMS',
        benefit_discount_type: 'PERCENT_OFF',
        benefit_percent_off: '10.0000',
        last_synced_at: '2026-10-12 00:00:00',
      },
      {
        ...usContext,
        promotion_id: 'PRM-2',
        tracking_id: 'TRK-2',
        promotion_title: '$15 off the tent',
        promotion_type: 'COUPON',
        coupon_type: 'MONEY_OFF',
        status: 'SCHEDULED',
        start_date: '2026-10-20',
        end_date: '2026-11-03',
        event_id: 'EVT-PD',
        budget_type: 'SPEND',
        budget_value: '1500.0000',
        budget_currency: 'USD',
        selection_id: 'SEL-2',
        selection_revision_id: '4.0000',
        selection_type: 'ITEMS',
        benefit_discount_type: 'AMOUNT_OFF',
        benefit_percent_off: null,
        benefit_amount_off: '15.0000',
        benefit_currency: 'USD',
        benefit_per_customer_uses: '1.0000',
        benefit_stacking: 'STACKABLE',
        benefit_quantity: '1.0000',
        purchase_req_quantity_type: 'AT_LEAST',
        purchase_req_quantity: '2.0000',
        claim_code_type: 'ONE_TIME',
        claim_code_value: 'TENT15',
        display_on_website: 'DETAIL_PAGE',
        upfront_fee_amount: '5.0000',
        upfront_fee_currency: 'USD',
        upfront_fee_frequency: 'PER_PROMOTION',
        variable_fee_pct: '2.5000',
        variable_fee_cap_amount: '200.0000',
        variable_fee_cap_currency: 'USD',
        latest_revision_status: 'PENDING_REVIEW',
        created_date: '2026-10-12',
        last_updated_date: '2026-10-13',
        last_synced_at: '2026-10-10 00:00:00',
        issues: '[{"code":"PRICE_TOO_HIGH"}]',
        customer_segments: '[{"segment":"PRIME"}]',
        additional_tiers: '[{"quantity":3,"amountOff":25}]',
      },
      {
        ...usContext,
        promotion_id: 'PRM-3',
        ...nulls(promotionColumns),
        status: 'ENDED',
        last_synced_at: '2026-10-09 00:00:00',
      },
    ]);
  });

  it("mkt_promotion_items: the items of each promotion's latest version", async () => {
    expect(
      await rows(wh, `select * from marts.mkt_promotion_items order by seller_or_vendor_name, promotion_id, sku`),
    ).toEqual([
      {
        ...deContext,
        promotion_id: 'PRM-DE-1',
        asin: 'B07JWEC5W0',
        sku: 'SOCK-1',
        ...nulls(itemColumns),
        benefit_discount_type: 'FIXED_PRICE',
        benefit_fixed_price: '17.9900',
        benefit_fixed_price_currency: 'EUR',
        benefit_per_customer_uses: '2.0000',
        last_synced_at: deLandedAt,
      },
      // FLT-1 was dropped by the 12 October version.
      {
        ...usContext,
        promotion_id: 'PRM-1',
        asin: 'B0E54BJT7R',
        sku: 'CAN-1',
        ...nulls(itemColumns),
        benefit_type: 'DISCOUNT',
        benefit_percent_off: '12.0000',
        last_synced_at: '2026-10-12 00:00:00',
      },
      {
        ...usContext,
        promotion_id: 'PRM-2',
        asin: 'B08FCHRZNY',
        sku: 'TENT-1',
        benefit_type: 'DISCOUNT',
        benefit_discount_type: 'AMOUNT_OFF',
        benefit_percent_off: null,
        benefit_amount_off: '15.0000',
        benefit_discount_currency: 'USD',
        benefit_fixed_price: null,
        benefit_fixed_price_currency: null,
        benefit_per_customer_uses: null,
        budget_type: 'SPEND',
        budget_value: '1500.0000',
        budget_currency: 'USD',
        issues: '[{"code":"LOW_STOCK"}]',
        last_synced_at: '2026-10-10 00:00:00',
      },
    ]);
  });
});
