/**
 * The fake sellers' advertising: sponsored products campaigns with their ads and targets, display and brands campaigns.
 */

export interface SpTarget {
  text: string;
  match: 'EXACT' | 'PHRASE' | 'BROAD' | 'TARGETING_EXPRESSION_PREDEFINED' | 'TARGETING_EXPRESSION';
  terms: readonly string[];
}

export interface SpCampaign {
  name: string;
  adGroup: string;
  skus: readonly string[];
  targets: readonly SpTarget[];
  /** Impressions per ad and day. */
  impressions: number;
  ctr: number;
  /** Cost per click range, in cents. */
  cpc: readonly [number, number];
  cvr: number;
}

const auto = (closeTerms: readonly string[], looseTerms: readonly string[], subst: readonly string[]): SpTarget[] => [
  { text: 'close-match', match: 'TARGETING_EXPRESSION_PREDEFINED', terms: closeTerms },
  { text: 'loose-match', match: 'TARGETING_EXPRESSION_PREDEFINED', terms: looseTerms },
  { text: 'substitutes', match: 'TARGETING_EXPRESSION_PREDEFINED', terms: subst },
];

/** Sponsored products campaigns by country (a test campaign in each spends and never converts). */
export const SP_CAMPAIGNS: Record<'US' | 'DE', readonly SpCampaign[]> = {
  US: [
    {
      name: 'SP | Tents | Auto',
      adGroup: 'Tents - all',
      skus: ['ACM-TENT-2P-GRN', 'ACM-TENT-2P-ORG', 'ACM-TENT-4P-GRN'],
      targets: auto(
        ['backpacking tent 2 person', '2 person tent'],
        ['camping gear', 'tent stakes aluminum'],
        ['b07kx4q2zr', 'b08n5wrwnw'],
      ),
      impressions: 1100,
      ctr: 0.005,
      cpc: [110, 180],
      cvr: 0.09,
    },
    {
      name: 'SP | Backpacks | Exact',
      adGroup: 'Backpacks - exact',
      skus: ['ACM-PACK-40L-GRY', 'ACM-PACK-DAY-BLK', 'ACM-PACK-KIDS-GRN'],
      targets: [
        { text: 'hiking backpack', match: 'EXACT', terms: ['hiking backpack', 'hiking backpacks'] },
        { text: 'daypack', match: 'EXACT', terms: ['daypack'] },
        { text: 'kids hiking backpack', match: 'EXACT', terms: ['kids hiking backpack'] },
      ],
      impressions: 900,
      ctr: 0.006,
      cpc: [80, 140],
      cvr: 0.11,
    },
    {
      name: 'SP | Mugs & Bottles | Broad',
      adGroup: 'Mugs & bottles - broad',
      skus: ['ACM-MUG-12-BLK-FBA', 'ACM-MUG-12-BLK', 'ACM-BOTTLE-1L-WHT', 'ACM-MUG-16-RED'],
      targets: [
        {
          text: 'camping mug',
          match: 'BROAD',
          terms: ['camping mug', 'insulated camping mug with lid', 'enamel camping mug'],
        },
        { text: 'insulated water bottle', match: 'BROAD', terms: ['insulated water bottle', 'water bottle 32 oz'] },
        { text: 'travel mug', match: 'PHRASE', terms: ['stainless travel mug', 'travel mug 12 oz'] },
      ],
      impressions: 1000,
      ctr: 0.006,
      cpc: [55, 95],
      cvr: 0.12,
    },
    {
      name: 'SP | Headlamps | Auto',
      adGroup: 'Lighting - all',
      skus: ['ACM-LAMP-HEAD-300', 'ACM-LAMP-LANT'],
      targets: auto(['headlamp rechargeable', 'led headlamp'], ['camping lantern', 'flashlight'], ['b09g9fpgtn']),
      impressions: 1200,
      ctr: 0.005,
      cpc: [60, 110],
      cvr: 0.1,
    },
    {
      name: 'SP | Sleep | Phrase',
      adGroup: 'Sleeping - phrase',
      skus: ['ACM-BAG-0F-REG', 'ACM-PAD-SELF-R'],
      targets: [
        { text: 'sleeping bag', match: 'PHRASE', terms: ['0 degree sleeping bag', 'sleeping bag for adults'] },
        { text: 'sleeping pad', match: 'PHRASE', terms: ['self inflating sleeping pad', 'sleeping pad camping'] },
      ],
      impressions: 800,
      ctr: 0.005,
      cpc: [90, 160],
      cvr: 0.08,
    },
    {
      // A test campaign that spends and never converts.
      name: 'SP | Cooler | Test',
      adGroup: 'Cooler - exact',
      skus: ['ACM-COOLER-25Q'],
      targets: [{ text: 'hard cooler', match: 'EXACT', terms: ['hard cooler', 'hard coolers'] }],
      impressions: 600,
      ctr: 0.006,
      cpc: [120, 190],
      cvr: 0,
    },
  ],
  DE: [
    {
      name: 'SP | Zelte | Auto',
      adGroup: 'Zelte - alle',
      skus: ['ACM-TENT-2P-GRN', 'ACM-TENT-2P-ORG', 'ACM-TENT-4P-GRN'],
      targets: auto(['zelt 2 personen', 'trekkingzelt leicht'], ['camping ausrüstung', 'heringe alu'], ['b07kx4q2zr']),
      impressions: 900,
      ctr: 0.005,
      cpc: [70, 120],
      cvr: 0.08,
    },
    {
      name: 'SP | Rucksäcke | Exact',
      adGroup: 'Rucksäcke - exact',
      skus: ['ACM-PACK-40L-GRY', 'ACM-PACK-DAY-BLK', 'ACM-PACK-KIDS-GRN'],
      targets: [
        { text: 'wanderrucksack', match: 'EXACT', terms: ['wanderrucksack', 'wanderrucksäcke'] },
        { text: 'tagesrucksack', match: 'EXACT', terms: ['tagesrucksack'] },
        { text: 'kinderrucksack wandern', match: 'EXACT', terms: ['kinderrucksack wandern'] },
      ],
      impressions: 800,
      ctr: 0.006,
      cpc: [50, 95],
      cvr: 0.1,
    },
    {
      name: 'SP | Becher & Flaschen | Broad',
      adGroup: 'Becher - broad',
      skus: ['ACM-MUG-12-BLK-FBA', 'ACM-MUG-12-BLK', 'ACM-BOTTLE-1L-WHT'],
      targets: [
        { text: 'thermobecher', match: 'BROAD', terms: ['thermobecher', 'thermobecher edelstahl to go'] },
        { text: 'isolierflasche', match: 'PHRASE', terms: ['isolierflasche 1 liter', 'trinkflasche isoliert'] },
      ],
      impressions: 900,
      ctr: 0.006,
      cpc: [40, 75],
      cvr: 0.11,
    },
    {
      name: 'SP | Stirnlampen | Auto',
      adGroup: 'Licht - alle',
      skus: ['ACM-LAMP-HEAD-300', 'ACM-LAMP-LANT'],
      targets: auto(['stirnlampe led', 'stirnlampe wiederaufladbar'], ['campinglampe', 'taschenlampe'], ['b09g9fpgtn']),
      impressions: 1000,
      ctr: 0.005,
      cpc: [40, 80],
      cvr: 0.1,
    },
    {
      name: 'SP | Sitzkissen | Test',
      adGroup: 'Sitzkissen - exact',
      skus: ['ACM-SEAT-PAD-DE'],
      targets: [{ text: 'sitzkissen faltbar', match: 'EXACT', terms: ['sitzkissen faltbar', 'sitzkissen outdoor'] }],
      impressions: 500,
      ctr: 0.006,
      cpc: [45, 80],
      cvr: 0,
    },
  ],
};

/** SKUs of the sponsored display retargeting campaign. */
export const SD_SKUS = ['ACM-BOTTLE-1L-WHT', 'ACM-LAMP-HEAD-300', 'ACM-SOCK-MER-3PK'];

/** Sponsored brands campaigns: one always splits over two ASINs, one has days without a purchased product. */
export const sbSpecs = (country: 'US' | 'DE') => [
  {
    key: 'mugs',
    name: country === 'US' ? 'SB | Brand | Trail Mugs & Bottles' : 'SB | Marke | Becher & Flaschen',
    skus: ['ACM-MUG-12-BLK-FBA', 'ACM-BOTTLE-1L-WHT'],
    clicks: [12, 28] as const,
    cpc: [70, 120] as const,
    always: true,
  },
  {
    key: 'video',
    name: country === 'US' ? 'SB | Video | Headlamp' : 'SB | Video | Stirnlampe',
    skus: ['ACM-LAMP-HEAD-300'],
    clicks: [6, 16] as const,
    cpc: [60, 110] as const,
    always: false,
  },
];
