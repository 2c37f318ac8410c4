// The fake's GET_SALES_AND_TRAFFIC_REPORT documents against the marketplace's published report schema
// (contracts/schemas/reports/sellerSalesAndTrafficReport.json, draft-07), with its formats.
import { describe, expect, it } from 'vitest';
import { demoSellers } from '../src/index.ts';
import { salesAndTrafficReport } from '../src/data/sales-and-traffic.ts';
import { reportSchema } from './contracts/published-models.ts';

const violations = reportSchema('sellerSalesAndTrafficReport.json');

const sellers = demoSellers('2026-06-01');
// A week well after the sellers opened, generated two weeks later: every date shows, fully revised.
const FROM = '2026-09-07';
const TO = '2026-09-13';
const asOf = Date.parse('2026-09-27T00:00:00Z');

interface Document {
  salesAndTrafficByDate: {
    salesByDate: { unitsOrdered: number; unitsShipped: number; unitsRefunded: number; refundRate: number };
  }[];
  salesAndTrafficByAsin: { trafficByAsin: { sessions: number; sessionPercentage: number } }[];
}

function generate(sellerIndex: number, asinGranularity: string): Document {
  const document = salesAndTrafficReport(sellers[sellerIndex]!, {
    reportType: 'GET_SALES_AND_TRAFFIC_REPORT',
    dataStartTime: FROM,
    dataEndTime: TO,
    reportOptions: { dateGranularity: 'DAY', asinGranularity },
    asOf,
  });
  expect(document).not.toBeNull();
  return JSON.parse(document!.body.toString('utf8')) as Document;
}

describe('GET_SALES_AND_TRAFFIC_REPORT documents', () => {
  const cases = sellers.flatMap((s, i) => ['PARENT', 'CHILD', 'SKU'].map((g) => [s.name, g, i] as const));

  it.each(cases)('of %s at %s granularity are valid against the published schema', (_, granularity, i) => {
    const document = generate(i, granularity);
    expect(violations(document)).toEqual([]);
    expect(document.salesAndTrafficByDate).toHaveLength(7);
  });

  it.each(sellers.map((s, i) => [s.name, i] as const))(
    'of %s ship and refund units by date, the refund rate being units refunded per unit ordered',
    (_, i) => {
      const days = generate(i, 'CHILD').salesAndTrafficByDate.map((d) => d.salesByDate);
      // Sixteen orders a day ship every day of a week; a refund (2.6 % of lines) may fall on any day of it.
      expect(days.every((d) => d.unitsShipped > 0)).toBe(true);
      for (const d of days)
        expect(d.refundRate).toBeCloseTo(Math.min(100, (d.unitsRefunded / d.unitsOrdered) * 100), 2);
    },
  );

  it("gives each by-ASIN entry its share of the report's sessions", () => {
    const entries = generate(0, 'CHILD').salesAndTrafficByAsin.map((e) => e.trafficByAsin);
    const sessions = entries.reduce((a, e) => a + e.sessions, 0);
    for (const e of entries) expect(e.sessionPercentage).toBeCloseTo((e.sessions / sessions) * 100, 2);
    // Rounded to two decimals each, the shares still add up to 100 within the rounding.
    expect(Math.abs(entries.reduce((a, e) => a + e.sessionPercentage, 0) - 100)).toBeLessThan(0.01 * entries.length);
  });
});
