import { z } from 'zod';
import { feedResult, parseProcessingReport, submitFeed } from '../../connectors/feeds.ts';
import { batchOutcome, define, waiting, type ActionContext, type ActionGroup, type ActionOutcome } from './define.ts';
import { sku } from './listings.ts';
import { exactlyWhen, ruled, someAbove0 } from './rules.ts';

/** A flat-file cell: no tab or line break (they would split the record). */
const cell = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .regex(/^[^\t\r\n]*$/, 'no tabs or line breaks');
const flatFile = 'text/tab-separated-values; charset=UTF-8';
/** The feed is processed within minutes: look again after one. */
const CHECK_AFTER_MS = 60_000;

/** OrderAcknowledgement CancelReason values (the flat file's cancel-reason takes the same). */
const cancelReason = z.enum([
  'NoInventory',
  'ShippingAddressUndeliverable',
  'CustomerExchange',
  'BuyerCanceled',
  'GeneralAdjustment',
  'CarrierCreditDecision',
  'RiskAssessmentInformationNotValid',
  'CarrierCoverageFailure',
  'CustomerReturn',
  'MerchandiseNotReceived',
]);

/** One record of a submitted flat file (row order = the processing report's original-record-number), for the result. */
export type FeedRecord = Record<string, string | number | undefined>;

/** A tab-delimited flat file: the header row, then one line per record (absent values empty). */
function tsv(columns: string[], rows: FeedRecord[]): string {
  return (
    [columns, ...rows.map((r) => columns.map((c) => String(r[c] ?? '')))].map((cells) => cells.join('\t')).join('\n') +
    '\n'
  );
}

/** Submits a flat file and waits for the marketplace to process it (the feedId is what `check` looks at). */
async function submit(
  ctx: ActionContext,
  feedType: string,
  columns: string[],
  rows: FeedRecord[],
): Promise<ActionOutcome> {
  const feedId = await submitFeed(ctx.sp(), {
    feedType,
    marketplaceIds: [ctx.marketplaceId],
    contentType: flatFile,
    content: tsv(columns, rows),
  });
  return waiting(feedId, { feedId, feedType, processingStatus: 'IN_QUEUE', records: rows.length }, CHECK_AFTER_MS);
}

/**
 * Looks at a submitted feed (getFeed): still queued or in progress waits again; DONE reads its processing report and
 * answers per record (each one's errors; a record with an Error failed, Warnings keep it done); FATAL and CANCELLED
 * are ERROR.
 */
async function check(ctx: ActionContext, feedId: string, rows: FeedRecord[]): Promise<ActionOutcome> {
  const { processingStatus, report } = await feedResult(ctx.sp(), feedId);
  if (processingStatus === 'IN_QUEUE' || processingStatus === 'IN_PROGRESS')
    return waiting(feedId, { feedId, processingStatus }, CHECK_AFTER_MS);
  if (processingStatus !== 'DONE' || report === undefined) {
    const message =
      processingStatus === 'CANCELLED'
        ? 'the feed was cancelled before it was processed'
        : 'the marketplace could not process the feed (FATAL)';
    return {
      status: 'ERROR',
      result: { feedId, processingStatus },
      error: { status: 502, code: `FEED_${processingStatus}`, message },
    };
  }
  return reportOutcome(feedId, report, rows);
}

/**
 * A DONE feed's outcome from its processing report, record by record. A report that does not account for every
 * record sent (its "records processed" count differs) proves nothing about the others: ERROR, not COMPLETED.
 */
export function reportOutcome(feedId: string, report: string, rows: FeedRecord[]): ActionOutcome {
  const processingStatus = 'DONE';
  const parsed = parseProcessingReport(report);
  if (parsed.processed !== rows.length) {
    return {
      status: 'ERROR',
      result: { feedId, processingStatus, recordsProcessed: parsed.processed },
      error: {
        status: 502,
        code: 'FEED_REPORT_INCOMPLETE',
        message: `the feed's processing report counts ${parsed.processed} records processed; ${rows.length} were sent`,
      },
    };
  }
  const items = rows.map((row, i) => {
    const problems = parsed.errors
      .filter((e) => e.record === i + 1)
      .map(({ code, type, message }) => ({ code, type, message }));
    const errors = problems.filter((p) => p.type.toLowerCase() === 'error');
    const warnings = problems.filter((p) => p.type.toLowerCase() !== 'error');
    return { ...row, ok: errors.length === 0, invalid: true, errors, warnings };
  });
  return batchOutcome(items, {
    feedId,
    processingStatus,
    recordsProcessed: parsed.processed,
    recordsSuccessful: parsed.successful,
    items: items.map(({ invalid: _, ...item }) => item),
  });
}

const cancelSchema = z
  .object({
    orders: z
      .array(
        z
          .object({
            orderId: cell(50).describe('The Amazon order id (3-7-7 digits, e.g. 113-4419825-7310652).'),
            cancelReason,
            merchantOrderItemIds: z
              .array(cell(64))
              .min(1)
              .max(100)
              .optional()
              .describe(
                'Cancels only these items (the ids the seller gave them in an earlier acknowledgement); without, the whole order.',
              ),
          })
          .strict(),
      )
      .min(1)
      .max(100),
  })
  .strict()
  .meta({
    examples: [
      {
        orders: [
          { orderId: '113-4419825-7310652', cancelReason: 'NoInventory' },
          { orderId: '114-2950173-4418261', cancelReason: 'BuyerCanceled' },
        ],
      },
    ],
  });

/**
 * The flat file order acknowledgement records of a cancellation: one per order, or one per item when items are named.
 */
const cancelRows = (d: z.output<typeof cancelSchema>): FeedRecord[] =>
  d.orders.flatMap((o) =>
    (o.merchantOrderItemIds ?? [undefined]).map((item) => ({
      'order-id': o.orderId,
      'cancel-reason': o.cancelReason,
      'merchant-order-item-id': item,
    })),
  );
const cancelColumns = ['order-id', 'cancel-reason', 'merchant-order-item-id'];

const address = z
  .object({
    name: cell(50),
    addressLine1: cell(180),
    addressLine2: cell(60).optional(),
    addressLine3: cell(60).optional(),
    city: cell(50),
    stateOrRegion: cell(150),
    postalCode: cell(20),
    countryCode: z.string().regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code such as US'),
    phone: cell(20).optional(),
  })
  .strict();

const removalSchema = ruled(
  z
    .object({
      removalOrderId: z
        .string()
        .regex(/^[A-Za-z0-9._-]{1,50}$/, 'up to 50 letters, digits, dots, dashes or underscores')
        .describe("The seller's id of the removal order (MerchantRemovalOrderID)."),
      removalDisposition: z
        .enum(['Return', 'Disposal'])
        .describe('Return ships the units to shippingAddress; Disposal destroys them.'),
      shippingAddress: address
        .optional()
        .describe('Where a Return goes (required for Return, not allowed for Disposal).'),
      items: z
        .array(
          ruled(
            z
              .object({
                sku,
                sellableQuantity: z.number().int().min(0).max(100_000).default(0),
                unsellableQuantity: z.number().int().min(0).max(100_000).default(0),
              })
              .strict(),
            someAbove0(
              ['sellableQuantity', 'unsellableQuantity'],
              'give a sellableQuantity or unsellableQuantity above 0',
            ),
          ),
        )
        .min(1)
        .max(100),
    })
    .strict(),
  exactlyWhen(
    'shippingAddress',
    'removalDisposition',
    ['Return'],
    'is required for Return and not allowed for Disposal',
  ),
).meta({
  examples: [
    {
      removalOrderId: 'RMV-20250301-01',
      removalDisposition: 'Return',
      shippingAddress: {
        name: 'Acme Outdoor Returns',
        addressLine1: '1200 Industrial Way',
        city: 'Reno',
        stateOrRegion: 'NV',
        postalCode: '89502',
        countryCode: 'US',
      },
      items: [
        { sku: 'ACM-PACK-DAY-BLK', sellableQuantity: 5 },
        { sku: 'ACM-MUG-16-RED', unsellableQuantity: 2 },
      ],
    },
  ],
});

/** The removal flat file's records: one per item, the order-level columns repeated on each. */
const removalRows = (d: z.output<typeof removalSchema>): FeedRecord[] =>
  d.items.map((i) => ({
    MerchantRemovalOrderID: d.removalOrderId,
    RemovalDisposition: d.removalDisposition,
    AddressName: d.shippingAddress?.name,
    AddressFieldOne: d.shippingAddress?.addressLine1,
    AddressFieldTwo: d.shippingAddress?.addressLine2,
    AddressFieldThree: d.shippingAddress?.addressLine3,
    AddressCity: d.shippingAddress?.city,
    AddressCountryCode: d.shippingAddress?.countryCode,
    AddressStateOrRegion: d.shippingAddress?.stateOrRegion,
    AddressPostalCode: d.shippingAddress?.postalCode,
    ContactPhoneNumber: d.shippingAddress?.phone,
    MerchantSKU: i.sku,
    SellableQuantity: i.sellableQuantity,
    UnsellableQuantity: i.unsellableQuantity,
  }));
const removalColumns = [
  'MerchantRemovalOrderID',
  'RemovalDisposition',
  'AddressName',
  'AddressFieldOne',
  'AddressFieldTwo',
  'AddressFieldThree',
  'AddressCity',
  'AddressCountryCode',
  'AddressStateOrRegion',
  'AddressPostalCode',
  'ContactPhoneNumber',
  'MerchantSKU',
  'SellableQuantity',
  'UnsellableQuantity',
];

/**
 * The types the SP-API offers only as feeds (Feeds API 2021-06-30, models/feeds-api-model/feeds_2021-06-30.json):
 * order cancellation (POST_FLAT_FILE_ORDER_ACKNOWLEDGEMENT_DATA with a cancel-reason) and FBA removal orders
 * (POST_FLAT_FILE_FBA_CREATE_REMOVAL). Both wait for the marketplace (WAITING_EXTERNAL_PROCESSING, the feedId), and
 * `check` ends them by the processing report, record by record (batchOutcome).
 */
export const feedActions: ActionGroup = {
  MKT_ORDERS_CANCEL: define(
    cancelSchema,
    (ctx, d) => submit(ctx, 'POST_FLAT_FILE_ORDER_ACKNOWLEDGEMENT_DATA', cancelColumns, cancelRows(d)),
    (ctx, feedId, d) => check(ctx, feedId, cancelRows(d)),
  ),
  MKT_FBA_REMOVAL_ORDERS_ADD: define(
    removalSchema,
    (ctx, d) => submit(ctx, 'POST_FLAT_FILE_FBA_CREATE_REMOVAL', removalColumns, removalRows(d)),
    (ctx, feedId, d) => check(ctx, feedId, removalRows(d)),
  ),
};
