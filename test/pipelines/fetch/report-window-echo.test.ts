// How a killed run's report is recognised among the seller's reports (getReports): by the window the marketplace
// echoes, which is the requested window converted to UTC, or for sales and traffic the requested local dates.
import { describe, expect, it } from 'vitest';
import { sameTime } from '../../../src/pipelines/fetch/sp-report.ts';

// Requested: 7 November 2026 in Los Angeles (PST, UTC-8), from local midnight.
const sent = '2026-11-07T00:00:00-08:00';

describe('a report window as the marketplace echoes it', () => {
  it('matches the same instant in UTC, the requested date, and that date at UTC midnight', () => {
    expect(sameTime('2026-11-07T08:00:00+00:00', sent)).toBe(true); // 00:00 PST is 08:00 UTC
    expect(sameTime('2026-11-07T08:00:00Z', sent)).toBe(true);
    expect(sameTime('2026-11-07', sent)).toBe(true); // reduced to the requested local date
    expect(sameTime('2026-11-07T00:00:00+00:00', sent)).toBe(true); // the Report model's date-time of that date
  });

  it('tells another window apart', () => {
    expect(sameTime('2026-11-08T00:00:00+00:00', sent)).toBe(false); // the next date
    expect(sameTime('2026-11-06', sent)).toBe(false);
    expect(sameTime('2026-11-07T01:00:00+00:00', sent)).toBe(false); // neither the instant nor a bare date
    expect(sameTime(undefined, sent)).toBe(false);
    expect(sameTime(undefined, undefined)).toBe(true); // a report type without a window
  });
});
