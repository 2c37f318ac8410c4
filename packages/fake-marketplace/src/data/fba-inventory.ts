import { isoUtc } from './orders-report.ts';
import { listings, type Listing } from './listings.ts';
import { Rng } from './random.ts';
import { localDate, localMidnight, type FakeSeller } from './sellers.ts';
import { encodeText, money, toTsv } from './text.ts';
import type { FakeDocument } from './types.ts';

/** The FBA listings of the seller on the day of `asOf`, with that day's stream. */
function fbaListings(seller: FakeSeller, asOf: number): { listing: Listing; rng: Rng }[] {
  const day = localDate(asOf, seller.timezone);
  return listings(seller, asOf)
    .filter((l) => !l.merchantFulfilled)
    .map((listing) => ({ listing, rng: new Rng([seller.seed, 'fba-inventory', listing.sku, day]) }));
}

/** getInventorySummaries records: quantities that move from day to day, with every bucket of `inventoryDetails`. */
export function inventorySummaries(seller: FakeSeller, asOf: number): Record<string, unknown>[] {
  return fbaListings(seller, asOf).map(({ listing, rng }) => {
    const fulfillable = rng.int(0, 180);
    const inbound = [
      rng.chance(0.2) ? rng.int(1, 40) : 0,
      rng.chance(0.3) ? rng.int(1, 60) : 0,
      rng.chance(0.2) ? rng.int(1, 20) : 0,
    ];
    const reserved = [rng.int(0, 4), rng.int(0, 2), rng.int(0, 2)];
    const unfulfillable = rng.chance(0.2) ? rng.int(1, 5) : 0;
    return {
      asin: listing.asin,
      fnSku: listing.fnsku,
      sellerSku: listing.sku,
      condition: 'NewItem',
      inventoryDetails: {
        fulfillableQuantity: fulfillable,
        inboundWorkingQuantity: inbound[0],
        inboundShippedQuantity: inbound[1],
        inboundReceivingQuantity: inbound[2],
        reservedQuantity: {
          totalReservedQuantity: reserved[0]! + reserved[1]! + reserved[2]!,
          pendingCustomerOrderQuantity: reserved[0],
          pendingTransshipmentQuantity: reserved[1],
          fcProcessingQuantity: reserved[2],
        },
        researchingQuantity: {
          totalResearchingQuantity: 0,
          researchingQuantityBreakdown: [
            { name: 'researchingQuantityInShortTerm', quantity: 0 },
            { name: 'researchingQuantityInMidTerm', quantity: 0 },
            { name: 'researchingQuantityInLongTerm', quantity: 0 },
          ],
        },
        unfulfillableQuantity: {
          totalUnfulfillableQuantity: unfulfillable,
          customerDamagedQuantity: unfulfillable,
          warehouseDamagedQuantity: 0,
          distributorDamagedQuantity: 0,
          carrierDamagedQuantity: 0,
          defectiveQuantity: 0,
          expiredQuantity: 0,
        },
      },
      lastUpdatedTime: new Date(asOf - rng.int(60, 3600) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      productName: listing.name,
      totalQuantity:
        fulfillable + inbound.reduce((a, b) => a + b, 0) + reserved.reduce((a, b) => a + b, 0) + unfulfillable,
    };
  });
}

const STRANDED = [
  'primary-action',
  'date-stranded',
  'Date-to-take-auto-removal',
  'status-primary',
  'status-secondary',
  'error-message',
  'stranded-reason',
  'asin',
  'sku',
  'fnsku',
  'product-name',
  'condition',
  'fulfilled-by',
  'fulfillable-qty',
  'your-price',
  'unfulfillable-qty',
  'reserved-quantity',
  'inbound-shipped-qty',
] as const;
const RECOMMENDED = [
  'snapshot-date',
  'sku',
  'fnsku',
  'asin',
  'product-name',
  'condition',
  'sellable-quantity',
  'sellable-271-365-days',
  'sellable-365+-days',
  'sellable-removal-quantity',
  'unsellable-quantity',
  'unsellable-0-7-days',
  'unsellable-8-60-days',
  'unsellable-61-90-days',
  'sellable-121-180-days',
  'sellable-181-270-days',
] as const;

const tsv = (seller: FakeSeller, header: readonly string[], rows: Record<string, string>[]): FakeDocument => ({
  body: encodeText(toTsv(header, rows), seller.charset),
  contentType: `text/plain;charset=${seller.charset}`,
});

/** GET_STRANDED_INVENTORY_UI_DATA: the inactive and incomplete FBA listings that still hold units; null without FBA. */
export function strandedReport(seller: FakeSeller, asOf: number): FakeDocument | null {
  if (!seller.fba) return null;
  const rows = fbaListings(seller, asOf)
    .filter(({ listing }) => listing.status !== 'Active')
    .map(({ listing, rng }) => {
      const since = localMidnight(localDate(asOf, seller.timezone), seller.timezone) - rng.int(1, 20) * 86_400_000;
      const closed = listing.status === 'Inactive';
      return {
        'primary-action': closed ? 'Relist' : 'Fix listing',
        'date-stranded': isoUtc(since),
        'Date-to-take-auto-removal': closed ? isoUtc(since + 30 * 86_400_000) : '',
        'status-primary': 'Inactive',
        'status-secondary': closed ? 'Closed' : 'Missing information',
        'error-message': closed ? 'Listing is closed' : 'Missing required attribute: item_weight',
        'stranded-reason': closed ? 'Inactive listing' : 'Listing error',
        asin: listing.asin,
        sku: listing.sku,
        fnsku: listing.fnsku,
        'product-name': listing.name,
        condition: 'New',
        'fulfilled-by': 'Amazon',
        'fulfillable-qty': String(rng.int(1, 30)),
        'your-price': money(listing.price),
        'unfulfillable-qty': String(rng.int(0, 2)),
        'reserved-quantity': String(rng.int(0, 3)),
        'inbound-shipped-qty': '0',
      };
    });
  return rows.length === 0 ? null : tsv(seller, STRANDED, rows);
}

/** GET_FBA_RECOMMENDED_REMOVAL_DATA: aged or unsellable units the marketplace suggests removing; null without FBA. */
export function recommendedRemovalReport(seller: FakeSeller, asOf: number): FakeDocument | null {
  if (!seller.fba) return null;
  const snapshot = isoUtc(localMidnight(localDate(asOf, seller.timezone), seller.timezone));
  const rows = fbaListings(seller, asOf)
    .filter(({ rng }) => rng.chance(0.25))
    .map(({ listing, rng }) => {
      const aged = [rng.int(0, 4), rng.int(0, 3), rng.int(0, 5), rng.int(0, 5)];
      const unsellable = [rng.int(0, 2), rng.int(0, 3), rng.int(0, 1)];
      return {
        'snapshot-date': snapshot,
        sku: listing.sku,
        fnsku: listing.fnsku,
        asin: listing.asin,
        'product-name': listing.name,
        condition: 'New',
        'sellable-quantity': String(rng.int(10, 150)),
        'sellable-271-365-days': String(aged[0]),
        'sellable-365+-days': String(aged[1]),
        'sellable-removal-quantity': String(aged[0]! + aged[1]!),
        'unsellable-quantity': String(unsellable.reduce((a, b) => a + b, 0)),
        'unsellable-0-7-days': String(unsellable[0]),
        'unsellable-8-60-days': String(unsellable[1]),
        'unsellable-61-90-days': String(unsellable[2]),
        'sellable-121-180-days': String(aged[2]),
        'sellable-181-270-days': String(aged[3]),
      };
    });
  return rows.length === 0 ? null : tsv(seller, RECOMMENDED, rows);
}
