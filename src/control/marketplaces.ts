import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { modelsDir } from '../lib/project-paths.ts';

/** A row of the marketplaces seed. */
export interface Marketplace {
  marketplaceId: string;
  countryCode: string;
  countryName: string;
  /** Retail domain, e.g. amazon.de. */
  domain: string;
  currency: string;
  timezone: string;
  /** The APIs' region: NA, EU or FE. */
  region: 'NA' | 'EU' | 'FE';
}

/** The marketplaces seed (models/seeds/marketplaces.csv), by marketplace id. */
export function loadMarketplaces(): Map<string, Marketplace> {
  const [, ...lines] = readFileSync(join(modelsDir, 'seeds', 'marketplaces.csv'), 'utf8')
    .trim()
    .split('\n');
  return new Map(
    lines.map((line) => {
      const [marketplaceId, countryCode, countryName, domain, currency, timezone, , region] = line.split(
        ',',
      ) as string[];
      return [
        marketplaceId!,
        {
          marketplaceId: marketplaceId!,
          countryCode: countryCode!,
          countryName: countryName!,
          domain: domain!,
          currency: currency!,
          timezone: timezone!,
          region: region as Marketplace['region'],
        },
      ];
    }),
  );
}
