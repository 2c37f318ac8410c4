import { DE_PLACES, US_PLACES, type Place } from './places.ts';

/** An advertiser of the fake Ads API: one profile per (account, marketplace). */
export interface FakeAdsAccount {
  /** `profileId` of GET /v2/profiles (a number upstream). */
  profileId: number;
  /** `accountInfo.id`: the advertiser's entity id. */
  entityId: string;
  /** Runs sponsored TV campaigns (stCampaigns has rows). */
  sponsoredTv: boolean;
  /** Buys DSP through an agency profile: the advertiser id DSP reports filter on, or null. */
  dspAdvertiserId: string | null;
}

/**
 * One seller account of the fake marketplace, selling in one marketplace. Everything the fake serves for it is a
 * pure function of this description, the day asked for and the time asked at.
 */
export interface FakeSeller {
  /** Selling partner id (merchant token), as the OAuth callback and `SellerId` fields carry it. */
  sellerId: string;
  name: string;
  marketplaceId: string;
  countryCode: 'US' | 'DE';
  region: 'NA' | 'EU' | 'FE';
  timezone: string;
  currency: 'USD' | 'EUR';
  /** `sales-channel` / `marketplace-name` value, e.g. Amazon.com. */
  salesChannel: string;
  /** Charset of its flat files (EU flat files come as windows-1252). */
  charset: 'UTF-8' | 'Cp1252';
  /** First marketplace-local day with orders; earlier windows hold nothing (their reports end CANCELLED). */
  openedOn: string;
  /** Average orders per day before weekday, growth and deal-day effects. */
  ordersPerDay: number;
  /** Uses Fulfillment by Amazon (FBA-only reports end CANCELLED otherwise). */
  fba: boolean;
  /** Uses Amazon Warehousing and Distribution. */
  awd: boolean;
  seed: number;
  /** Prices set through patchListingsItem (an action), by SKU: in cents, from that time on. */
  priceChanges?: Map<string, { cents: number; from: number }>;
  orderPrefixes: readonly string[];
  places: readonly Place[];
  itemPromoIds: readonly string[];
  shipPromoId: string;
  ads: FakeAdsAccount | null;
}

/**
 * The demo's two sellers, Acme Outdoor US and DE (same ids as fixtures/demo/connections.json).
 * @param openedOn first day with orders, for both @default '2024-10-01'
 */
export function demoSellers(openedOn = '2024-10-01'): FakeSeller[] {
  return [
    {
      sellerId: 'A3ACMEUS0SELLER',
      name: 'Acme Outdoor US',
      marketplaceId: 'ATVPDKIKX0DER',
      countryCode: 'US',
      region: 'NA',
      timezone: 'America/Los_Angeles',
      currency: 'USD',
      salesChannel: 'Amazon.com',
      charset: 'UTF-8',
      openedOn,
      ordersPerDay: 16,
      fba: true,
      awd: true,
      seed: 0x05acbe01,
      orderPrefixes: ['111', '112', '113', '114'],
      places: US_PLACES,
      itemPromoIds: ['ACME-FALL15-US', 'PLM-7f3c1a92-Back to Trail', 'Lightning Deal 4417-0925'],
      shipPromoId: 'US Core Free Shipping Promotion 8271533',
      ads: {
        profileId: 3184726611025977,
        entityId: 'ENTITY1ACMEUS',
        sponsoredTv: true,
        dspAdvertiserId: '5830094118201',
      },
    },
    {
      sellerId: 'A3ACMEDE0SELLER',
      name: 'Acme Outdoor DE',
      marketplaceId: 'A1PA6795UKMFR9',
      countryCode: 'DE',
      region: 'EU',
      timezone: 'Europe/Berlin',
      currency: 'EUR',
      salesChannel: 'Amazon.de',
      charset: 'Cp1252',
      openedOn,
      ordersPerDay: 16,
      fba: true,
      awd: false,
      seed: 0x05acbe02,
      orderPrefixes: ['302', '303', '304', '305', '028'],
      places: DE_PLACES,
      itemPromoIds: ['ACME-HERBST10', 'PLM-4b9e0d17-Wandersaison', 'Blitzangebot 2209-1003'],
      shipPromoId: 'DE Core Free Shipping Promotion 5520147',
      ads: { profileId: 2950183366471204, entityId: 'ENTITY2ACMEDE', sponsoredTv: false, dspAdvertiserId: null },
    },
  ];
}

export { addDays, localDate, localMidnight } from '../dates.ts';
