/** A ship-to place with its weight in the order mix. */
export interface Place {
  city: string;
  state: string;
  zip: string;
  w: number;
  /** US combined sales-tax rate. */
  tax?: number;
  stateName?: string;
}

export const US_PLACES: readonly Place[] = [
  { city: 'Los Angeles', state: 'CA', stateName: 'California', zip: '90012', w: 6, tax: 0.095 },
  { city: 'San Francisco', state: 'CA', stateName: 'California', zip: '94103', w: 4, tax: 0.08625 },
  { city: 'San Diego', state: 'CA', stateName: 'California', zip: '92101', w: 3, tax: 0.0775 },
  { city: 'Sacramento', state: 'CA', stateName: 'California', zip: '95814', w: 2, tax: 0.0875 },
  { city: 'Seattle', state: 'WA', stateName: 'Washington', zip: '98101', w: 4, tax: 0.1035 },
  { city: 'Spokane', state: 'WA', stateName: 'Washington', zip: '99201', w: 1, tax: 0.09 },
  { city: 'Portland', state: 'OR', stateName: 'Oregon', zip: '97205', w: 3, tax: 0 },
  { city: 'Bend', state: 'OR', stateName: 'Oregon', zip: '97701', w: 2, tax: 0 },
  { city: 'Austin', state: 'TX', stateName: 'Texas', zip: '78701', w: 3, tax: 0.0825 },
  { city: 'Houston', state: 'TX', stateName: 'Texas', zip: '77002', w: 3, tax: 0.0825 },
  { city: 'Dallas', state: 'TX', stateName: 'Texas', zip: '75201', w: 2, tax: 0.0825 },
  { city: 'New York', state: 'NY', stateName: 'New York', zip: '10001', w: 5, tax: 0.08875 },
  { city: 'Brooklyn', state: 'NY', stateName: 'New York', zip: '11201', w: 3, tax: 0.08875 },
  { city: 'Buffalo', state: 'NY', stateName: 'New York', zip: '14202', w: 1, tax: 0.0875 },
  { city: 'Miami', state: 'FL', stateName: 'Florida', zip: '33130', w: 3, tax: 0.07 },
  { city: 'Orlando', state: 'FL', stateName: 'Florida', zip: '32801', w: 2, tax: 0.065 },
  { city: 'Chicago', state: 'IL', stateName: 'Illinois', zip: '60601', w: 4, tax: 0.1025 },
  { city: 'Denver', state: 'CO', stateName: 'Colorado', zip: '80202', w: 4, tax: 0.0881 },
  { city: 'Boulder', state: 'CO', stateName: 'Colorado', zip: '80302', w: 2, tax: 0.0886 },
  { city: 'Boston', state: 'MA', stateName: 'Massachusetts', zip: '02108', w: 3, tax: 0.0625 },
  { city: 'Cambridge', state: 'MA', stateName: 'Massachusetts', zip: '02139', w: 1, tax: 0.0625 },
  { city: 'Atlanta', state: 'GA', stateName: 'Georgia', zip: '30303', w: 2, tax: 0.089 },
  { city: 'Philadelphia', state: 'PA', stateName: 'Pennsylvania', zip: '19103', w: 2, tax: 0.08 },
  { city: 'Pittsburgh', state: 'PA', stateName: 'Pennsylvania', zip: '15222', w: 1, tax: 0.07 },
  { city: 'Phoenix', state: 'AZ', stateName: 'Arizona', zip: '85004', w: 2, tax: 0.086 },
  { city: 'Asheville', state: 'NC', stateName: 'North Carolina', zip: '28801', w: 1, tax: 0.07 },
  { city: 'Richmond', state: 'VA', stateName: 'Virginia', zip: '23219', w: 1, tax: 0.06 },
  { city: 'Minneapolis', state: 'MN', stateName: 'Minnesota', zip: '55401', w: 2, tax: 0.09025 },
  { city: 'Bozeman', state: 'MT', stateName: 'Montana', zip: '59715', w: 1, tax: 0 },
  { city: 'Manchester', state: 'NH', stateName: 'New Hampshire', zip: '03101', w: 1, tax: 0 },
  { city: 'Salt Lake City', state: 'UT', stateName: 'Utah', zip: '84101', w: 2, tax: 0.0825 },
  { city: 'Newark', state: 'NJ', stateName: 'New Jersey', zip: '07102', w: 1, tax: 0.06625 },
  { city: 'Columbus', state: 'OH', stateName: 'Ohio', zip: '43215', w: 1, tax: 0.075 },
  { city: 'Anchorage', state: 'AK', stateName: 'Alaska', zip: '99501', w: 1, tax: 0 },
];
export const DE_PLACES: readonly Place[] = [
  { city: 'Berlin', state: 'Berlin', zip: '10115', w: 7 },
  { city: 'Hamburg', state: 'Hamburg', zip: '20095', w: 5 },
  { city: 'München', state: 'Bayern', zip: '80331', w: 6 },
  { city: 'Nürnberg', state: 'Bayern', zip: '90402', w: 2 },
  { city: 'Würzburg', state: 'Bayern', zip: '97070', w: 1 },
  { city: 'Köln', state: 'Nordrhein-Westfalen', zip: '50667', w: 4 },
  { city: 'Düsseldorf', state: 'Nordrhein-Westfalen', zip: '40213', w: 3 },
  { city: 'Münster', state: 'Nordrhein-Westfalen', zip: '48143', w: 2 },
  { city: 'Frankfurt am Main', state: 'Hessen', zip: '60311', w: 3 },
  { city: 'Stuttgart', state: 'Baden-Württemberg', zip: '70173', w: 3 },
  { city: 'Freiburg im Breisgau', state: 'Baden-Württemberg', zip: '79098', w: 2 },
  { city: 'Leipzig', state: 'Sachsen', zip: '04109', w: 2 },
  { city: 'Dresden', state: 'Sachsen', zip: '01067', w: 2 },
  { city: 'Hannover', state: 'Niedersachsen', zip: '30159', w: 2 },
  { city: 'Göttingen', state: 'Niedersachsen', zip: '37073', w: 1 },
  { city: 'Bremen', state: 'Bremen', zip: '28195', w: 1 },
  { city: 'Saarbrücken', state: 'Saarland', zip: '66111', w: 1 },
  { city: 'Mainz', state: 'Rheinland-Pfalz', zip: '55116', w: 1 },
  { city: 'Kiel', state: 'Schleswig-Holstein', zip: '24103', w: 1 },
  { city: 'Rostock', state: 'Mecklenburg-Vorpommern', zip: '18055', w: 1 },
  { city: 'Erfurt', state: 'Thüringen', zip: '99084', w: 1 },
  { city: 'Magdeburg', state: 'Sachsen-Anhalt', zip: '39104', w: 1 },
  { city: 'Potsdam', state: 'Brandenburg', zip: '14467', w: 1 },
];
