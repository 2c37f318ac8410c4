import { demoSellers, type FakeSeller } from './sellers.ts';

/** How the fake tells a vendor account from a seller account: its selling partner id ends so (demoVendor's does). */
const VENDOR_SUFFIX = '0VENDOR';

/**
 * The demo vendor: Acme Outdoor US as a Vendor Central account (its own ids, no advertising). The SP-API fake serves
 * the vendor operations to it and refuses them to seller accounts (403 Unauthorized).
 */
export function demoVendor(openedOn = '2024-10-01'): FakeSeller {
  const us = demoSellers(openedOn)[0]!;
  return {
    ...us,
    sellerId: `A3ACMEUS${VENDOR_SUFFIX}`,
    name: 'Acme Outdoor US (vendor)',
    seed: 0x05acbe11,
    fba: false,
    awd: false,
    ads: null,
  };
}

/** Whether the fake treats an account as a vendor (vendor roles granted): by its selling partner id's suffix. */
export const isVendor = (seller: FakeSeller): boolean => seller.sellerId.endsWith(VENDOR_SUFFIX);

/** One line of a purchase order or direct fulfillment order. */
export interface VendorOrderItem {
  itemSequenceNumber: string;
  asin: string;
  vendorSku: string;
  quantity: number;
}

/** A retail purchase order (Vendor Orders API): whom Amazon ordered from, where it ships to, what was done with it. */
export interface VendorPurchaseOrder {
  purchaseOrderNumber: string;
  sellingPartyId: string;
  shipToPartyId: string;
  items: VendorOrderItem[];
  acknowledgement?: unknown;
  shipmentConfirmations: string[];
}

/** A direct fulfillment order: the vendor's warehouse, the label and packing slip, what the vendor sent about it. */
export interface DfOrder {
  purchaseOrderNumber: string;
  sellingPartyId: string;
  shipFromPartyId: string;
  items: VendorOrderItem[];
  acknowledgement?: unknown;
  label?: Record<string, unknown>;
  shipmentConfirmation?: unknown;
  statusUpdates: unknown[];
}

/** A transport label of a retail shipment (GetShipmentLabels' TransportLabel). */
export interface TransportLabel {
  vendorShipmentIdentifier: string;
  createdAt: number;
  body: Record<string, unknown>;
}

/** An SP-API error of a transaction's `errors`. */
export interface TransactionError {
  code: string;
  message: string;
  details?: string;
}

interface Transaction {
  api: 'retail' | 'df';
  createdAt: number;
  errors: TransactionError[];
  apply: () => void;
  settled: boolean;
}

/** How long the fake takes to process a submitted transaction, on its clock. */
export const TRANSACTION_MS = 120_000;

/** The demo vendor's codes: its vendor code, its warehouse, and the Amazon warehouse its purchase orders ship to. */
export const VENDOR_CODES = { sellingPartyId: 'ACMEU', warehouseId: 'ACMEWH1', amazonWarehouseId: 'ABE8' } as const;

/** Transactions already finished when the fake starts (examples read them). */
export const SEEDED_TRANSACTIONS = {
  retail: '4b4f7a1e-2c55-4a4e-9d0b-6f3e8a1c2d01',
  df: '7c2d9e40-81b3-4f6a-a5e2-0d9b3c4e5f02',
} as const;

const line = (itemSequenceNumber: string, vendorSku: string, asin: string, quantity: number): VendorOrderItem => ({
  itemSequenceNumber,
  vendorSku,
  asin,
  quantity,
});

/**
 * What the fake holds for one vendor account: its purchase orders (ACPO0001, ACPO0002), direct fulfillment orders
 * (ACDF0001 without a label yet, ACDF0002 with one), transport labels (shipment ACMESHIP0001) and transactions.
 * A transaction stays Processing for TRANSACTION_MS of fake time, then ends Success (its change applied) or Failure
 * with the errors found when it was submitted.
 */
export class VendorBook {
  readonly purchaseOrders = new Map<string, VendorPurchaseOrder>();
  readonly dfOrders = new Map<string, DfOrder>();
  readonly transportLabels: TransportLabel[] = [];
  private readonly transactions = new Map<string, Transaction>();

  constructor(start: number) {
    const { sellingPartyId, warehouseId, amazonWarehouseId } = VENDOR_CODES;
    for (const [po, items] of [
      [
        'ACPO0001',
        [line('00001', 'ACM-PACK-DAY-BLK', 'B0ACMEPK01', 24), line('00002', 'ACM-MUG-16-RED', 'B0ACMEMG16', 48)],
      ],
      ['ACPO0002', [line('00001', 'ACM-PACK-DAY-BLK', 'B0ACMEPK01', 12)]],
    ] as const) {
      this.purchaseOrders.set(po, {
        purchaseOrderNumber: po,
        sellingPartyId,
        shipToPartyId: amazonWarehouseId,
        items: [...items],
        shipmentConfirmations: [],
      });
    }
    for (const po of ['ACDF0001', 'ACDF0002']) {
      this.dfOrders.set(po, {
        purchaseOrderNumber: po,
        sellingPartyId,
        shipFromPartyId: warehouseId,
        items: [line('1', 'ACM-PACK-DAY-BLK', 'B0ACMEPK01', 1)],
        statusUpdates: [],
      });
    }
    this.transactions.set(SEEDED_TRANSACTIONS.retail, {
      api: 'retail',
      createdAt: start - TRANSACTION_MS,
      errors: [],
      apply: () => {},
      settled: true,
    });
    this.transactions.set(SEEDED_TRANSACTIONS.df, {
      api: 'df',
      createdAt: start - TRANSACTION_MS,
      errors: [],
      apply: () => {},
      settled: true,
    });
  }

  /** Starts a transaction: `apply` makes its change when it ends Success (no errors). Answers its id. */
  submit(api: 'retail' | 'df', at: number, errors: TransactionError[], apply: () => void): string {
    const id = crypto.randomUUID();
    this.transactions.set(id, { api, createdAt: at, errors, apply, settled: false });
    return id;
  }

  /** Ends every transaction whose processing time has passed by `at` (their changes applied in submission order). */
  settle(at: number): void {
    for (const t of this.transactions.values()) {
      if (t.settled || at < t.createdAt + TRANSACTION_MS) continue;
      t.settled = true;
      if (t.errors.length === 0) t.apply();
    }
  }

  /** A transaction of the API `api` as of `at` (Processing, Success, or Failure with errors), or undefined. */
  transaction(
    api: 'retail' | 'df',
    id: string,
    at: number,
  ): { transactionId: string; status: 'Processing' | 'Success' | 'Failure'; errors?: TransactionError[] } | undefined {
    this.settle(at);
    const t = this.transactions.get(id);
    if (!t || t.api !== api) return undefined;
    if (!t.settled) return { transactionId: id, status: 'Processing' };
    return t.errors.length > 0
      ? { transactionId: id, status: 'Failure', errors: t.errors }
      : { transactionId: id, status: 'Success' };
  }
}
