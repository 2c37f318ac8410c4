import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { modelsDir } from '../models/load-models.ts';

/** A row of the marketplaces seed. */
export interface Marketplace {
  marketplaceId: string;
  countryCode: string;
  countryName: string;
  currency: string;
  timezone: string;
}

/** The marketplaces seed (models/seeds/marketplaces.csv), by marketplace id. */
export function loadMarketplaces(): Map<string, Marketplace> {
  const [, ...lines] = readFileSync(join(modelsDir, 'seeds', 'marketplaces.csv'), 'utf8').trim().split('\n');
  return new Map(
    lines.map((line) => {
      const [marketplaceId, countryCode, countryName, , currency, timezone] = line.split(',') as string[];
      return [marketplaceId!, { marketplaceId: marketplaceId!, countryCode: countryCode!, countryName: countryName!, currency: currency!, timezone: timezone! }];
    }),
  );
}
