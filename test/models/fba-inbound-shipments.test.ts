import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addConnection } from '../../src/control/connections/connections.ts';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { runModels } from '../../src/models/run-models.ts';
import { land, makeHome, rows, US } from '../helpers/home.ts';

const SOURCE = 'fulfillmentInbound.shipments';
const sample = fileURLToPath(
  new URL(
    '../../fixtures/upstream-samples/fulfillmentInbound_2024-03-20.listInboundPlans.example.json',
    import.meta.url,
  ),
);
const CA = { id: '00000000-0000-4000-8000-00000000a003', marketplaceId: 'A2EUQ1WTGCTBG2' };

const tent = {
  msku: 'ACM-TENT-2P-GRN',
  fnsku: 'X0080T9W7T',
  asin: 'B08FCHRZNY',
  labelOwner: 'SELLER',
  prepInstructions: [{ prepType: 'ITEM_LABELING', prepOwner: 'SELLER', fee: { amount: 0.3, code: 'USD' } }],
};
const plan = {
  inboundPlanId: 'wf00000000-0000-4000-8000-000000000001',
  name: 'Spring restock',
  status: 'ACTIVE',
  createdAt: '2026-03-01T17:00:00Z',
  lastUpdatedAt: '2026-03-03T09:15:30.000Z',
  marketplaceIds: ['ATVPDKIKX0DER'],
  shipments: [{ shipmentId: 'sh-2', status: 'WORKING' }],
  sourceAddress: {
    name: 'Acme Warehouse',
    companyName: 'Acme Outdoor',
    addressLine1: '100 Harbor Way',
    city: 'Oakland',
    stateOrProvinceCode: 'CA',
    postalCode: '94607',
    countryCode: 'US',
    phoneNumber: '5105550100',
    email: 'ops@acme.example',
  },
};
const shipment1 = {
  shipmentId: 'sh-1',
  name: 'FBA STA (03/01/2026) - ONT8',
  status: 'READY_TO_SHIP',
  shipmentConfirmationId: 'FBA15ABCDE01',
  amazonReferenceId: '1234ABCD',
  placementOptionId: 'pl-1',
  destination: {
    destinationType: 'AMAZON_WAREHOUSE',
    warehouseId: 'ONT8',
    address: {
      name: 'ONT8',
      addressLine1: '24300 Nandina Ave',
      city: 'Moreno Valley',
      stateOrProvinceCode: 'CA',
      postalCode: '92551',
      countryCode: 'US',
    },
  },
  source: {
    sourceType: 'SELLER_FACILITY',
    address: {
      name: 'Acme Dock 2',
      addressLine1: '102 Harbor Way',
      addressLine2: 'Dock 2',
      city: 'Oakland',
      districtOrCounty: 'Alameda',
      stateOrProvinceCode: 'CA',
      postalCode: '94607',
      countryCode: 'US',
    },
  },
  dates: { readyToShipWindow: { start: '2026-03-05T07:30:00Z', end: '2026-03-06T08:30:00Z' } },
  selectedDeliveryWindow: {
    availabilityType: 'AVAILABLE',
    deliveryWindowOptionId: 'dw-1',
    startDate: '2026-03-10T14:00:00.000Z',
    endDate: '2026-03-12T06:00:00.000Z',
  },
};

async function build(wh: Warehouse) {
  const results = await runModels(wh, { select: ['mkt_fba_inbound_shipments'] });
  expect(results.filter((r) => r.status !== 'success' || r.findings.length > 0)).toEqual([]);
}

describe('mkt_fba_inbound_shipments', () => {
  let wh: Warehouse;
  let dir: string;
  beforeEach(async () => ({ wh, dir } = await makeHome()));
  afterEach(async () => wh.close());

  const write = (name: string, document: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(document));
    return path;
  };
  const landedAt = async (file: string) =>
    (await rows(wh, `select timezone('UTC', landed_at) as t from control.landed_files where file_name = '${file}'`))[0]!
      .t;

  it('shows each shipment with the items of the latest file holding it, under its latest plan', async () => {
    await land(
      wh,
      SOURCE,
      US,
      write('v1.json', {
        inboundPlan: plan,
        shipments: [
          {
            shipment: shipment1,
            items: [
              { items: [{ ...tent, quantity: 12 }], pagination: { nextToken: 'p2' } },
              {
                items: [
                  {
                    msku: 'ACM-MUG-12-BLK-FBA',
                    fnsku: 'X00BXG95U5',
                    asin: 'B05JYC0Q2J',
                    quantity: 24,
                    labelOwner: 'AMAZON',
                    expiration: '2027-01-31',
                    manufacturingLotCode: 'LOT-7',
                    prepInstructions: [],
                  },
                ],
              },
            ],
          },
          // getShipment without status: the plan's shipment summary says WORKING; no source address: the plan's.
          {
            shipment: {
              shipmentId: 'sh-2',
              placementOptionId: 'pl-1',
              destination: { destinationType: 'AMAZON_OPTIMIZED' },
            },
            items: {
              items: [
                {
                  msku: 'ACM-BOTTLE-1L-WHT',
                  fnsku: 'X00KZ0EL9N',
                  asin: 'B0WA5LCA35',
                  quantity: 6,
                  labelOwner: 'NONE',
                  prepInstructions: [],
                },
              ],
            },
          },
        ],
      }),
    );
    // Later: sh-1 shipped with 10 tents and without the mugs; sh-2 is not in this file and stays as first seen.
    await land(
      wh,
      SOURCE,
      US,
      write('v2.json', {
        inboundPlan: { ...plan, lastUpdatedAt: '2026-03-06T12:00:00Z' },
        shipments: [{ shipment: { ...shipment1, status: 'SHIPPED' }, items: { items: [{ ...tent, quantity: 10 }] } }],
      }),
    );
    await build(wh);
    const got = await rows(
      wh,
      `select * from marts.mkt_fba_inbound_shipments order by fba_inbound_shipment_id, seller_sku`,
    );
    const planColumns = {
      inbound_plan_id: 'wf00000000-0000-4000-8000-000000000001',
      plan_name: 'Spring restock',
      plan_status: 'ACTIVE',
      plan_created_at: '2026-03-01 17:00:00',
      plan_last_updated_at: '2026-03-06 12:00:00',
    };
    const context = {
      marketplace_id: 'ATVPDKIKX0DER',
      marketplace_country_code: 'US',
      marketplace_country_name: 'United States',
      seller_or_vendor_id: US.id,
      seller_or_vendor_name: 'Test US',
      marketplace_seller_id: 'SELLERUS',
    };
    const noDestinationAddress = Object.fromEntries(
      [
        'name',
        'address_line1',
        'address_line2',
        'city',
        'company_name',
        'country_code',
        'district_or_county',
        'email',
        'phone_number',
        'postal_code',
        'state_or_province_code',
      ].map((p) => [`destination_address_${p}`, null]),
    );
    expect(got.map((r) => ({ ...r, prep_instructions: JSON.parse(String(r.prep_instructions)) }))).toEqual([
      {
        ...context,
        ...planColumns,
        fba_inbound_shipment_id: 'sh-1',
        seller_sku: 'ACM-TENT-2P-GRN',
        fnsku: 'X0080T9W7T',
        child_asin: 'B08FCHRZNY',
        quantity: '10.0000',
        expiration: null,
        label_owner: 'SELLER',
        manufacturing_lot_code: null,
        prep_instructions: [{ prepType: 'ITEM_LABELING', prepOwner: 'SELLER', fee: { amount: 0.3, code: 'USD' } }],
        shipment_name: 'FBA STA (03/01/2026) - ONT8',
        fba_inbound_shipment_status: 'SHIPPED',
        shipment_confirmation_id: 'FBA15ABCDE01',
        mkt_reference_id: '1234ABCD',
        destination_warehouse_id: 'ONT8',
        destination_type: 'AMAZON_WAREHOUSE',
        destination_address_name: 'ONT8',
        destination_address_address_line1: '24300 Nandina Ave',
        destination_address_address_line2: null,
        destination_address_city: 'Moreno Valley',
        destination_address_company_name: null,
        destination_address_country_code: 'US',
        destination_address_district_or_county: null,
        destination_address_email: null,
        destination_address_phone_number: null,
        destination_address_postal_code: '92551',
        destination_address_state_or_province_code: 'CA',
        source_address_name: 'Acme Dock 2',
        source_address_address_line1: '102 Harbor Way',
        source_address_address_line2: 'Dock 2',
        source_address_city: 'Oakland',
        source_address_company_name: null,
        source_address_country_code: 'US',
        source_address_district_or_county: 'Alameda',
        source_address_email: null,
        source_address_phone_number: null,
        source_address_postal_code: '94607',
        source_address_state_or_province_code: 'CA',
        // Los Angeles: 07:30 UTC on 5 March is 23:30 PST on 4 March, 08:30 UTC on 6 March is 00:30 PST;
        // 14:00 UTC on 10 March is 07:00 PDT, 06:00 UTC on 12 March is 23:00 PDT on 11 March.
        ready_to_ship_window_start: '2026-03-04',
        ready_to_ship_window_end: '2026-03-06',
        selected_delivery_window_start: '2026-03-10',
        selected_delivery_window_end: '2026-03-11',
        placement_option_id: 'pl-1',
        last_seen_at: await landedAt('v2.json'),
      },
      {
        ...context,
        ...planColumns,
        fba_inbound_shipment_id: 'sh-2',
        seller_sku: 'ACM-BOTTLE-1L-WHT',
        fnsku: 'X00KZ0EL9N',
        child_asin: 'B0WA5LCA35',
        quantity: '6.0000',
        expiration: null,
        label_owner: 'NONE',
        manufacturing_lot_code: null,
        prep_instructions: [],
        shipment_name: null,
        fba_inbound_shipment_status: 'WORKING',
        shipment_confirmation_id: null,
        mkt_reference_id: null,
        destination_warehouse_id: null,
        destination_type: 'AMAZON_OPTIMIZED',
        ...noDestinationAddress,
        source_address_name: 'Acme Warehouse',
        source_address_address_line1: '100 Harbor Way',
        source_address_address_line2: null,
        source_address_city: 'Oakland',
        source_address_company_name: 'Acme Outdoor',
        source_address_country_code: 'US',
        source_address_district_or_county: null,
        source_address_email: 'ops@acme.example',
        source_address_phone_number: '5105550100',
        source_address_postal_code: '94607',
        source_address_state_or_province_code: 'CA',
        ready_to_ship_window_start: null,
        ready_to_ship_window_end: null,
        selected_delivery_window_start: null,
        selected_delivery_window_end: null,
        placement_option_id: 'pl-1',
        last_seen_at: await landedAt('v1.json'),
      },
    ]);
  });

  it('takes plan metadata from the real listInboundPlans sample and shows the plan only under its marketplace', async () => {
    const organizationId = String((await rows(wh, 'select id from control.organizations'))[0]!.id);
    await addConnection(wh, { organizationId, id: CA.id, name: 'Test CA', marketplaceId: CA.marketplaceId });
    // A bundle carrying only the plan id: name, status and marketplace come from the sample's plan record.
    const bundle = write('bundle.json', {
      inboundPlan: { inboundPlanId: 'wf1234abcd-1234-abcd-5678-1234abcd5678' },
      shipments: [
        {
          shipment: { shipmentId: 'sh-ca-1', status: 'WORKING' },
          items: { items: [{ ...tent, quantity: 4, prepInstructions: [] }] },
        },
      ],
    });
    for (const connection of [CA, US]) {
      expect(await land(wh, SOURCE, connection, sample)).toMatchObject({ status: 'landed', rows: 2 });
      expect(await land(wh, SOURCE, connection, bundle)).toMatchObject({ status: 'landed', rows: 3 });
    }
    await build(wh);
    // The sample's plans are for amazon.ca (A2EUQ1WTGCTBG2): the US connection shows none of their lines.
    expect(
      await rows(
        wh,
        `select marketplace_id, seller_or_vendor_name, inbound_plan_id, fba_inbound_shipment_id, seller_sku, quantity, plan_name, plan_status,
      plan_created_at, plan_last_updated_at, source_address_city from marts.mkt_fba_inbound_shipments`,
      ),
    ).toEqual([
      {
        marketplace_id: 'A2EUQ1WTGCTBG2',
        seller_or_vendor_name: 'Test CA',
        inbound_plan_id: 'wf1234abcd-1234-abcd-5678-1234abcd5678',
        fba_inbound_shipment_id: 'sh-ca-1',
        seller_sku: 'ACM-TENT-2P-GRN',
        quantity: '4.0000',
        plan_name: 'FBA (03/08/2023, 01:15 PM)',
        plan_status: 'ACTIVE',
        plan_created_at: '2023-03-08 13:15:30',
        plan_last_updated_at: '2023-03-08 13:15:30',
        source_address_city: null,
      },
    ]);
  });
});
