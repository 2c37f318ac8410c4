import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { land, makeHome, rows, US } from '../helpers/home.ts';
import { writeJson } from '../helpers/profit.ts';

const SOURCE = 'promotions';
const raw = 'raw.promotions';
const count = async (wh: Warehouse) => (await rows(wh, `select count(*)::int as n from ${raw}`))[0]?.n;

describe('ingest promotions (docs/promotions-format.md)', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  const promotion = {
    promotionId: 'PRM-1',
    promotionTitle: 'Fall 10 % off',
    selectionType: 'ITEMS',
    benefitPercentOff: 10,
    budgetValue: '1500.50',
    startDate: '2026-10-01',
    endDate: '2026-10-31T07:59:59Z',
    customerSegments: [{ segment: 'PRIME_MEMBERS' }],
    items: [{ asin: 'B0E54BJT7R', sku: 'CAN-1', benefitPercentOff: 10, note: 'kept' }],
  };

  it('lands one row per promotion: numbers as decimals, dates as delivered, items and JSON fields as JSON text, unknown fields in _extra', async () => {
    const path = writeJson(dir, 'p.json', {
      syncedAt: '2026-10-16T04:30:00Z',
      promotions: [
        { ...promotion, channel: 'WEB' },
        { promotionId: 'PRM-2', lastSyncedAt: '2026-10-15T10:00:00+02:00' },
      ],
    });
    expect(await land(wh, SOURCE, US, path)).toMatchObject({ status: 'landed', rows: 2 });
    expect(
      await rows(
        wh,
        `select _line_number, promotion_id, benefit_percent_off, budget_value, start_date, end_date, timezone('UTC', last_synced_at)::varchar as synced_utc,
        customer_segments, items, _extra::varchar as extra from ${raw} order by _line_number`,
      ),
    ).toEqual([
      {
        _line_number: '1',
        promotion_id: 'PRM-1',
        benefit_percent_off: '10.0000',
        budget_value: '1500.5000',
        start_date: '2026-10-01',
        end_date: '2026-10-31T07:59:59Z',
        synced_utc: '2026-10-16 04:30:00',
        customer_segments: '[{"segment":"PRIME_MEMBERS"}]',
        items: '[{"asin":"B0E54BJT7R","sku":"CAN-1","benefitPercentOff":10,"note":"kept"}]',
        extra: '{"channel":"WEB"}',
      },
      // The record's own lastSyncedAt wins over the document's syncedAt.
      {
        _line_number: '2',
        promotion_id: 'PRM-2',
        benefit_percent_off: null,
        budget_value: null,
        start_date: null,
        end_date: null,
        synced_utc: '2026-10-15 08:00:00',
        customer_segments: null,
        items: null,
        extra: null,
      },
    ]);
  });

  const refusals: [string, unknown, number | null, string][] = [
    [
      'a document without a promotions array',
      [promotion],
      null,
      'expected a promotions document: a JSON object with an array "promotions" (docs/promotions-format.md)',
    ],
    [
      'a promotion without promotionId',
      { promotions: [promotion, { ...promotion, promotionId: '' }] },
      2,
      'record 2: promotionId is missing',
    ],
    [
      'a day-first date',
      { promotions: [{ ...promotion, startDate: '01.10.2026' }] },
      1,
      'record 1: startDate "01.10.2026" is neither YYYY-MM-DD nor an ISO 8601 date-time with offset',
    ],
    [
      'an item without SKU',
      { promotions: [{ ...promotion, items: [promotion.items[0], { asin: 'B1' }] }] },
      1,
      'record 1: items[1].sku is missing',
    ],
    [
      'an item amount that is no number',
      { promotions: [{ ...promotion, items: [{ asin: 'B1', sku: 'S1', benefitAmountOff: '5 USD' }] }] },
      1,
      'record 1: items[0].benefitAmountOff "5 USD" is not a number',
    ],
    [
      'an item repeated in one promotion',
      {
        promotions: [
          {
            ...promotion,
            items: [
              { asin: 'B1', sku: 'S1' },
              { asin: 'B1', sku: 'S1' },
            ],
          },
        ],
      },
      1,
      'record 1: items[1] repeats asin B1 and sku S1 of an earlier item',
    ],
    [
      'issues that are text',
      { promotions: [{ ...promotion, issues: 'none' }] },
      1,
      'record 1: issues is not an array or object',
    ],
    [
      'a syncedAt without offset',
      { syncedAt: '2026-10-16 04:30', promotions: [promotion] },
      null,
      'syncedAt "2026-10-16 04:30" is not an ISO 8601 date-time with offset',
    ],
  ];

  it.each(refusals)('refuses %s whole, naming record and field', async (_name, document, line, reason) => {
    const result = await land(wh, SOURCE, US, writeJson(dir, 'bad.json', document));
    expect(result).toMatchObject({ status: 'refused', line, reason });
    expect(await count(wh)).toBe(0);
  });

  it('refuses a promotion-level amount that is no number, naming the record and field', async () => {
    const result = await land(
      wh,
      SOURCE,
      US,
      writeJson(dir, 'bad.json', {
        promotions: [promotion, { ...promotion, promotionId: 'PRM-3', upfrontFeeAmount: 'five' }],
      }),
    );
    expect(result).toMatchObject({ status: 'refused', line: 2 });
    expect(result.status === 'refused' && result.reason).toMatch(
      /^record 2: upfrontFeeAmount: five is not a valid decimal/,
    );
  });
});
