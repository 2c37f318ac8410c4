/** How a report's window is sent: instants with the marketplace's offset, dates only, or none (a snapshot). */
export type WindowForm = 'timestamps' | 'dates' | 'none';

/**
 * How a source is obtained upstream (docs/design/live-apis.md §2–§4), declared with the source: an SP-API report, the
 * settlement reports the marketplace makes on its own schedule, an Ads API report, or an SP-API operation. A source
 * without one comes from dropped files (and the API, for unit costs) only.
 */
export type FetchSpec =
  | {
      kind: 'report';
      api: 'sp-api';
      reportType: string;
      window: WindowForm;
      reportOptions?: Record<string, string>;
      historyDays?: number;
      maxDays?: number;
    }
  | { kind: 'settlements'; api: 'sp-api'; reportType: string }
  | {
      kind: 'ads-report';
      api: 'ads';
      reportTypeId: string;
      adProduct: string;
      groupBy: string[];
      columns: string[];
      retentionDays: number;
      maxDays: number;
    }
  | { kind: 'operation'; api: 'sp-api'; operation: string; window: 'dates' | 'none' };

/** An SP-API report requested with createReport, its window sent as `window` says. */
export const reportFetch = (
  reportType: string,
  window: WindowForm,
  extra: { reportOptions?: Record<string, string>; historyDays?: number; maxDays?: number } = {},
): FetchSpec => ({ kind: 'report', api: 'sp-api', reportType, window, ...extra });

/** An SP-API operation called with its own paging (`pipelines/fetch/operations/`). */
export const operationFetch = (operation: string, window: 'dates' | 'none'): FetchSpec => ({
  kind: 'operation',
  api: 'sp-api',
  operation,
  window,
});

/** Whether a spec's requests carry a date window. */
export const isDated = (spec: FetchSpec): boolean =>
  spec.kind === 'ads-report' || ((spec.kind === 'report' || spec.kind === 'operation') && spec.window !== 'none');
