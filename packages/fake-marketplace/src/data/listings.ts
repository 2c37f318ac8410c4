import { ASINS, fnskuOf, listedIn, productName, unitCents } from './catalog.ts';
import type { Product } from './products.ts';
import { Rng } from './random.ts';
import { addDays, localDate, type FakeSeller } from './sellers.ts';
import { encodeText, money, toTsv } from './text.ts';
import type { FakeDocument } from './types.ts';

const HEADER = [
  'item-name',
  'item-description',
  'listing-id',
  'seller-sku',
  'price',
  'quantity',
  'open-date',
  'image-url',
  'item-is-marketplace',
  'product-id-type',
  'zshop-shipping-fee',
  'item-note',
  'item-condition',
  'zshop-category1',
  'zshop-browse-path',
  'zshop-storefront-feature',
  'asin1',
  'asin2',
  'asin3',
  'will-ship-internationally',
  'expedited-shipping',
  'zshop-boldface',
  'product-id',
  'bid-for-featured-placement',
  'add-delete',
  'pending-quantity',
  'fulfillment-channel',
  'merchant-shipping-group',
  'status',
] as const;

/** A listing of the seller as of a day: price (a small sale now and then), status, channel, open date. */
export interface Listing {
  product: Product;
  sku: string;
  asin: string;
  fnsku: string;
  name: string;
  price: number;
  merchantFulfilled: boolean;
  quantity: number;
  status: 'Active' | 'Inactive' | 'Incomplete';
  opened: number;
  listingId: string;
}

/**
 * The seller's listings on its marketplace's local date of `asOf` (the snapshot changes from day to day, not within
 * one).
 */
export function listings(seller: FakeSeller, asOf: number): Listing[] {
  const day = localDate(asOf, seller.timezone);
  return listedIn(seller.currency).map((p) => {
    const fixed = new Rng([seller.seed, 'listing', p.sku]);
    const daily = new Rng([seller.seed, 'listing', p.sku, day]);
    const opened =
      Date.parse(`${addDays(seller.openedOn, -fixed.int(30, 400))}T00:00:00Z`) + fixed.int(0, 86_399) * 1000;
    const sale = daily.chance(0.1) ? 0.85 + daily.float() * 0.1 : 1;
    const changed = seller.priceChanges?.get(p.sku);
    const merchantFulfilled = p.only === 'Merchant' || p.sku === 'ACM-HAMMOCK-DBL';
    const status = fixed.chance(0.05) ? 'Inactive' : fixed.chance(0.03) ? 'Incomplete' : 'Active';
    return {
      product: p,
      sku: p.sku,
      asin: ASINS.get(p.sku)!,
      fnsku: fnskuOf(p.sku),
      name: productName(p, seller.currency),
      price: changed && changed.from <= asOf ? changed.cents : Math.round(unitCents(p, seller.currency) * sale),
      merchantFulfilled,
      quantity: merchantFulfilled ? daily.int(5, 40) : 0,
      status,
      opened,
      listingId: `${new Date(opened).toISOString().slice(5, 10).replace('-', '')}${p.sku.replace(/^ACM-/, '').replace(/-/g, '').slice(0, 7)}`,
    };
  });
}

/** Open dates as the report writes them: local time with the zone's abbreviation (PDT, or MESZ in German files). */
function openDate(ms: number, seller: FakeSeller): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: seller.timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'short',
    })
      .formatToParts(ms)
      .map((p) => [p.type, p.value]),
  );
  const time = `${parts.hour}:${parts.minute}:${parts.second}`;
  if (seller.countryCode === 'DE')
    return `${parts.day}.${parts.month}.${parts.year} ${time} ${parts.timeZoneName === 'GMT+2' ? 'MESZ' : 'MEZ'}`;
  return `${parts.year}-${parts.month}-${parts.day} ${time} ${parts.timeZoneName}`;
}

/**
 * GET_MERCHANT_LISTINGS_ALL_DATA: every listing as of `asOf` (a snapshot: the window is ignored), decimal comma in DE.
 */
export function listingsReport(seller: FakeSeller, asOf: number): FakeDocument {
  const empty = Object.fromEntries(HEADER.map((h) => [h, ''])) as Record<string, string>;
  const rows = listings(seller, asOf)
    .sort((a, b) => a.sku.localeCompare(b.sku))
    .map((l) => ({
      ...empty,
      'item-name': l.name,
      'listing-id': l.listingId,
      'seller-sku': l.sku,
      price: seller.countryCode === 'DE' ? money(l.price).replace('.', ',') : money(l.price),
      quantity: l.merchantFulfilled ? String(l.quantity) : '',
      'open-date': openDate(l.opened, seller),
      'item-is-marketplace': 'y',
      'product-id-type': '1',
      'item-condition': '11',
      asin1: l.asin,
      'product-id': l.asin,
      'fulfillment-channel': l.merchantFulfilled ? 'DEFAULT' : seller.region === 'NA' ? 'AMAZON_NA' : 'AMAZON_EU',
      'merchant-shipping-group': 'Migrated Template',
      status: l.status,
    }));
  return { body: encodeText(toTsv(HEADER, rows), seller.charset), contentType: `text/plain;charset=${seller.charset}` };
}

/**
 * searchListingsItems items: each listing with its summaries, attributes, issues, offers, fulfillment and product type.
 */
export function listingsItems(seller: FakeSeller, asOf: number): Record<string, unknown>[] {
  const lang = seller.countryCode === 'DE' ? 'de_DE' : 'en_US';
  const m = seller.marketplaceId;
  return listings(seller, asOf).map((l) => {
    const productType = l.sku.split('-')[1] ?? 'PRODUCT';
    return {
      sku: l.sku,
      summaries: [
        {
          marketplaceId: m,
          asin: l.asin,
          productType,
          conditionType: 'new_new',
          status: l.status === 'Active' ? ['BUYABLE', 'DISCOVERABLE'] : ['DISCOVERABLE'],
          itemName: l.name,
          createdDate: new Date(l.opened).toISOString().replace(/\.\d{3}Z$/, 'Z'),
          lastUpdatedDate: new Date(asOf - 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
          mainImage: { link: `https://m.media-amazon.com/images/I/${l.asin}.jpg`, height: 1000, width: 1000 },
          fnSku: l.fnsku,
        },
      ],
      attributes: {
        item_name: [{ value: l.name, language_tag: lang, marketplace_id: m }],
        brand: [{ value: 'Acme Outdoor', language_tag: lang, marketplace_id: m }],
        list_price: [
          { value: unitCents(l.product, seller.currency) / 100, currency: seller.currency, marketplace_id: m },
        ],
      },
      issues:
        l.status === 'Incomplete'
          ? [
              {
                code: '90220',
                message: "'item_weight' is required but not supplied.",
                severity: 'ERROR',
                attributeNames: ['item_weight'],
                categories: ['MISSING_ATTRIBUTE'],
              },
            ]
          : [],
      offers: [
        { marketplaceId: m, offerType: 'B2C', price: { currencyCode: seller.currency, amount: money(l.price) } },
      ],
      fulfillmentAvailability: [
        l.merchantFulfilled
          ? { fulfillmentChannelCode: 'DEFAULT', quantity: l.quantity }
          : { fulfillmentChannelCode: seller.region === 'NA' ? 'AMAZON_NA' : 'AMAZON_EU' },
      ],
      productTypes: [{ marketplaceId: m, productType }],
    };
  });
}

/** getItemOffers payload of a listed ASIN (the seller's offer, sometimes beside a competitor's), or null. */
export function itemOffers(
  seller: FakeSeller,
  asin: string,
  itemCondition: string,
  asOf: number,
): Record<string, unknown> | null {
  const listing = listings(seller, asOf).find((l) => l.asin === asin && !l.merchantFulfilled);
  if (!listing) return null;
  const rng = new Rng([seller.seed, 'offers', asin, localDate(asOf, seller.timezone)]);
  const price = (cents: number) => ({ CurrencyCode: seller.currency, Amount: cents / 100 });
  const mine = {
    MyOffer: true,
    SubCondition: 'new',
    SellerId: seller.sellerId,
    SellerFeedbackRating: { SellerPositiveFeedbackRating: 98, FeedbackCount: 1532 },
    ShippingTime: { minimumHours: 24, maximumHours: 48, availabilityType: 'NOW' },
    ListingPrice: price(listing.price),
    Shipping: price(0),
    ShipsFrom: { Country: seller.countryCode },
    IsFulfilledByAmazon: true,
    PrimeInformation: { IsPrime: true, IsNationalPrime: true },
    IsBuyBoxWinner: true,
    IsFeaturedMerchant: true,
  };
  const other = rng.chance(0.4)
    ? [
        {
          ...mine,
          MyOffer: false,
          SellerId: `A${rng.id(13)}`,
          ListingPrice: price(Math.round(listing.price * (1.02 + rng.float() * 0.1))),
          IsBuyBoxWinner: false,
          IsFulfilledByAmazon: rng.chance(0.5),
        },
      ]
    : [];
  const offers = [mine, ...other];
  return {
    ASIN: asin,
    status: 'Success',
    ItemCondition: itemCondition,
    marketplaceId: seller.marketplaceId,
    Identifier: { MarketplaceId: seller.marketplaceId, ItemCondition: itemCondition, ASIN: asin },
    Summary: {
      TotalOfferCount: offers.length,
      NumberOfOffers: [{ condition: 'new', fulfillmentChannel: 'Amazon', OfferCount: offers.length }],
      LowestPrices: [
        {
          condition: 'new',
          fulfillmentChannel: 'Amazon',
          LandedPrice: price(listing.price),
          ListingPrice: price(listing.price),
          Shipping: price(0),
        },
      ],
      BuyBoxPrices: [
        { condition: 'new', LandedPrice: price(listing.price), ListingPrice: price(listing.price), Shipping: price(0) },
      ],
      BuyBoxEligibleOffers: [{ condition: 'new', fulfillmentChannel: 'Amazon', OfferCount: offers.length }],
      OffersAvailableTime: new Date(asOf).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    },
    Offers: offers,
  };
}
