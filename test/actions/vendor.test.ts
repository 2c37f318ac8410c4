// Vendor action types against the fake marketplace (Vendor Orders, Shipments, Transaction Status v1; direct
// fulfillment Orders, Shipping, Transactions 2021-12-28) for the demo vendor account: each schema example run to its
// final status, a write seen by a later read, a refusal, a failed transaction, and a seller account refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionType } from '../../src/vocabulary/action-types.ts';
import { exampleOf, type ActionDefinition, type ActionOutcome } from '../../src/actions/definitions/define.ts';
import { vendorActions } from '../../src/actions/definitions/vendor.ts';
import { ConnectorError } from '../../src/connectors/connector-error.ts';
import { demoVendor } from '@mktdata/fake-marketplace';
import { actionBench } from '../helpers/action-context.ts';

const V = vendorActions as Record<ActionType, ActionDefinition>;
const def = (type: ActionType): ActionDefinition => V[type]!;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TRACKING = /^1Z[0-9A-F]{16}$/;
/** Real milliseconds for the fake's 2 minutes of transaction processing at 2000× (60 ms), with room to spare. */
const decode = (base64: unknown) => Buffer.from(String(base64), 'base64').toString('utf8');

const WAITING: ActionType[] = [
  'MKT_VENDOR_PURCHASE_ORDERS_ACKNOWLEDGE',
  'MKT_VENDOR_SHIPMENTS_SUBMIT',
  'MKT_VENDOR_SHIPMENT_CONFIRMATIONS_SUBMIT',
  'MKT_VENDOR_DF_ORDERS_ACKNOWLEDGE',
  'MKT_VENDOR_DF_SHIPPING_LABEL_REQUESTS_SUBMIT',
  'MKT_VENDOR_DF_SHIPMENT_CONFIRMATIONS_SUBMIT',
  'MKT_VENDOR_DF_SHIPMENT_STATUS_UPDATES_SUBMIT',
];

describe('vendor actions', () => {
  const vendor = demoVendor();
  let bench: Awaited<ReturnType<typeof actionBench>>;
  // A transaction is Processing for 2 minutes of the fake's time (TRANSACTION_MS), on the clock both share.
  const afterProcessing = () => bench.clock.sleep(125_000);
  const run = (type: ActionType, details: unknown) => bench.run(def(type), details, vendor);
  const check = (type: ActionType, id: string, details: unknown) => bench.check(def(type), id, details, vendor);
  /** Runs a submission, checks it once still Processing, then after the processing time. */
  const submitted = async (
    type: ActionType,
    details: unknown,
  ): Promise<{ first: ActionOutcome; early: ActionOutcome; last: ActionOutcome }> => {
    const first = await run(type, details);
    const early = await check(type, first.waitFor!.externalId, details);
    await afterProcessing();
    return { first, early, last: await check(type, first.waitFor!.externalId, details) };
  };

  beforeAll(async () => {
    bench = await actionBench({ sellers: (s) => [...s, vendor] });
  });
  afterAll(async () => {
    await bench.fake.close();
  });

  it.each(WAITING)('%s: the example waits on its transaction, then completes', async (type) => {
    const { first, early, last } = await submitted(type, exampleOf(def(type)));
    expect(first.status).toBe('WAITING_EXTERNAL_PROCESSING');
    expect(first.waitFor!.externalId).toMatch(UUID);
    expect(first.result).toEqual({ transactionId: first.waitFor!.externalId, status: 'Processing' });
    // (it may already have completed: the check is not timed)
    expect(early.status).toMatch(/^(WAITING_EXTERNAL_PROCESSING|COMPLETED)$/);
    expect(last).toEqual({
      status: 'COMPLETED',
      result: { transactionId: first.waitFor!.externalId, status: 'Success', errors: [] },
    });
  });

  it('the transaction reads: the seeded retail and direct fulfillment transactions succeeded', async () => {
    expect(await run('MKT_VENDOR_TRANSACTIONS_GET', exampleOf(def('MKT_VENDOR_TRANSACTIONS_GET')))).toEqual({
      status: 'COMPLETED',
      result: { transactionId: '4b4f7a1e-2c55-4a4e-9d0b-6f3e8a1c2d01', status: 'Success' },
    });
    expect(await run('MKT_VENDOR_DF_TRANSACTIONS_GET', exampleOf(def('MKT_VENDOR_DF_TRANSACTIONS_GET')))).toEqual({
      status: 'COMPLETED',
      result: { transactionId: '7c2d9e40-81b3-4f6a-a5e2-0d9b3c4e5f02', status: 'Success' },
    });
  });

  it('MKT_VENDOR_SHIPMENT_LABELS_GET: the seeded transport label of ACMESHIP0001', async () => {
    const out = await run('MKT_VENDOR_SHIPMENT_LABELS_GET', exampleOf(def('MKT_VENDOR_SHIPMENT_LABELS_GET')));
    expect(out.status).toBe('COMPLETED');
    const { transportLabels, nextToken } = out.result as {
      transportLabels: { shipmentInformation: Record<string, unknown>; labelData: Record<string, unknown>[] }[];
      nextToken: null;
    };
    expect(nextToken).toBeNull();
    expect(transportLabels).toHaveLength(1);
    expect(transportLabels[0]!.shipmentInformation).toMatchObject({
      vendorDetails: { sellingParty: { partyId: 'ACMEU' }, vendorShipmentIdentifier: 'ACMESHIP0001' },
      buyerReferenceNumber: 'ACMEREF0001',
      warehouseId: 'ACMEWH1',
      shipToParty: { partyId: 'ABE8' },
      totalLabelCount: 1,
    });
    expect(transportLabels[0]!.labelData[0]).toMatchObject({
      labelSequenceNumber: 1,
      labelFormat: 'PDF',
      carrierCode: 'UPSN',
    });
    expect(transportLabels[0]!.labelData[0]!.trackingId).toMatch(TRACKING);
  });

  it('the direct fulfillment label and packing slip reads, and a label made at once', async () => {
    const label = await run('MKT_VENDOR_DF_SHIPPING_LABEL_GET', exampleOf(def('MKT_VENDOR_DF_SHIPPING_LABEL_GET')));
    expect(label).toMatchObject({
      status: 'COMPLETED',
      result: {
        purchaseOrderNumber: 'ACDF0002',
        labelFormat: 'ZPL',
        labelData: [{ packageIdentifier: '001', shipMethod: 'UPS_GR_RES' }],
      },
    });
    const slip = await run('MKT_VENDOR_DF_PACKING_SLIP_GET', exampleOf(def('MKT_VENDOR_DF_PACKING_SLIP_GET')));
    expect(slip).toMatchObject({
      status: 'COMPLETED',
      result: { purchaseOrderNumber: 'ACDF0001', contentType: 'application/pdf' },
    });
    expect(decode((slip.result as { content: string }).content)).toBe(
      '%PDF-1.4 packing slip ACDF0001 ACM-PACK-DAY-BLK x1',
    );
    const created = await run(
      'MKT_VENDOR_DF_SHIPPING_LABELS_CREATE',
      exampleOf(def('MKT_VENDOR_DF_SHIPPING_LABELS_CREATE')),
    );
    expect(created).toMatchObject({
      status: 'COMPLETED',
      result: { purchaseOrderNumber: 'ACDF0001', labelFormat: 'ZPL' },
    });
    const data = (
      created.result as { labelData: { packageIdentifier: string; trackingNumber: string; content: string }[] }
    ).labelData;
    expect(data).toHaveLength(1);
    expect(data[0]!.packageIdentifier).toBe('001');
    expect(data[0]!.trackingNumber).toMatch(TRACKING);
    expect(decode(data[0]!.content)).toBe(`^XA^FO50,50^BCN,100^FD${data[0]!.trackingNumber}^FS^XZ`);
    // The label made is what getShippingLabel answers for the order from now on.
    expect((await run('MKT_VENDOR_DF_SHIPPING_LABEL_GET', { purchaseOrderNumber: 'ACDF0001' })).result).toEqual(
      created.result,
    );
  });

  it('a transport request is seen by the label read once its transaction succeeded', async () => {
    const details = {
      vendorShipmentIdentifier: 'ACMESHIP0003',
      buyerReferenceNumber: 'ACMEREF0003',
      sellingPartyId: 'ACMEU',
      shipFromPartyId: 'ACMEWH1',
      shipToPartyId: 'ABE8',
      purchaseOrders: [
        {
          purchaseOrderNumber: 'ACPO0002',
          items: [{ itemSequenceNumber: '00001', vendorSku: 'ACM-PACK-DAY-BLK', quantity: 12 }],
        },
      ],
    };
    const labels = async () =>
      (await run('MKT_VENDOR_SHIPMENT_LABELS_GET', { vendorShipmentIdentifier: 'ACMESHIP0003' })).result as {
        transportLabels: { shipmentInformation: Record<string, unknown> }[];
      };
    const first = await run('MKT_VENDOR_SHIPMENTS_SUBMIT', details);
    expect((await labels()).transportLabels).toEqual([]);
    await afterProcessing();
    expect((await check('MKT_VENDOR_SHIPMENTS_SUBMIT', first.waitFor!.externalId, details)).status).toBe('COMPLETED');
    const after = (await labels()).transportLabels;
    expect(after).toHaveLength(1);
    expect(after[0]!.shipmentInformation).toMatchObject({
      buyerReferenceNumber: 'ACMEREF0003',
      vendorDetails: { vendorShipmentIdentifier: 'ACMESHIP0003' },
    });
  });

  it('an acknowledgement of a purchase order the vendor does not have: the transaction fails, BLOCKED_INVALID_INPUT', async () => {
    const details = {
      ...(exampleOf(def('MKT_VENDOR_PURCHASE_ORDERS_ACKNOWLEDGE')) as object),
      purchaseOrderNumber: 'ZZPO9999',
    };
    const { first, early, last } = await submitted('MKT_VENDOR_PURCHASE_ORDERS_ACKNOWLEDGE', details);
    expect(first.status).toBe('WAITING_EXTERNAL_PROCESSING');
    expect(early.status).toBe('WAITING_EXTERNAL_PROCESSING');
    expect(last).toEqual({
      status: 'BLOCKED_INVALID_INPUT',
      result: {
        transactionId: first.waitFor!.externalId,
        status: 'Failure',
        errors: [
          {
            code: 'InvalidInput',
            message: 'Purchase order ZZPO9999 was not found for this vendor.',
            details: 'purchaseOrderNumber',
          },
        ],
      },
      error: { status: 400, code: 'InvalidInput', message: 'Purchase order ZZPO9999 was not found for this vendor.' },
    });
  });

  it("a label for another warehouse than the order's is refused at once (400 InvalidInput)", async () => {
    const details = {
      ...(exampleOf(def('MKT_VENDOR_DF_SHIPPING_LABELS_CREATE')) as object),
      shipFromPartyId: 'OTHERWH',
    };
    const error = await run('MKT_VENDOR_DF_SHIPPING_LABELS_CREATE', details).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect(error).toMatchObject({ kind: 'invalid-input', status: 400, code: 'InvalidInput' });
    expect((error as Error).message).toContain(
      'body.shipFromParty.partyId OTHERWH is not the warehouse of purchase order ACDF0001',
    );
  });

  it('a seller account (no vendor role) is refused: 403 Unauthorized', async () => {
    const error = await bench
      .run(def('MKT_VENDOR_TRANSACTIONS_GET'), exampleOf(def('MKT_VENDOR_TRANSACTIONS_GET')), bench.sellers[0])
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'access-denied', status: 403, code: 'Unauthorized' });
  });
});
