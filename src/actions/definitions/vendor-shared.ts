import { z } from 'zod';
import { completed, waiting, type ActionContext, type ActionOutcome } from './define.ts';
import { atLeastOne } from './rules.ts';

/** A retail purchase order number: the Vendor Orders model's 8-character alphanumeric code. */
export const purchaseOrderNumber = z
  .string()
  .regex(/^[A-Za-z0-9]{8}$/, 'an 8-character alphanumeric purchase order number');
/** A direct fulfillment purchase order number. */
export const dfPurchaseOrderNumber = z.string().regex(/^[A-Za-z0-9]{1,64}$/, 'an alphanumeric purchase order number');
/** A party code: a vendor code (selling party) or a warehouse code (ship from, ship to). */
export const partyCode = z
  .string()
  .trim()
  .min(1)
  .max(20)
  .regex(/^[A-Za-z0-9_-]+$/, 'a vendor or warehouse code such as ACMEU or ABE8');
export const asin = z.string().regex(/^[A-Z0-9]{10}$/, 'a 10-character ASIN');
export const vendorSku = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .describe("The vendor's own product id (vendorProductIdentifier), as on the purchase order.");
export const dateTime = z.iso.datetime({ offset: true }).describe('ISO 8601 date-time.');
export const itemSequenceNumber = z.string().regex(/^[0-9]{1,5}$/, 'the line number of the order item, such as 00001');
export const transactionId = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .describe('The transactionId a vendor submission answered.');

/** `{ partyId }`: the PartyIdentification the vendor APIs take, by code alone. */
export const party = (partyId: string) => ({ partyId });
/** The product identifiers of an item line, as the vendor APIs name them. */
export const productIds = (i: { asin?: string; vendorSku?: string }, asinField = 'amazonProductIdentifier') => ({
  ...(i.asin ? { [asinField]: i.asin } : {}),
  ...(i.vendorSku ? { vendorProductIdentifier: i.vendorSku } : {}),
});
/** An item line names its product by ASIN, vendor SKU or both. */
export const namesProduct = atLeastOne(['asin', 'vendorSku'], 'give asin or vendorSku');

interface Transaction {
  transactionId: string;
  status: 'Processing' | 'Success' | 'Failure';
  errors?: { code: string; message: string; details?: string }[];
}

/**
 * The vendor transaction APIs: retail (getTransaction, `payload` envelope) and direct fulfillment
 * (getTransactionStatus).
 */
export type TransactionApi = 'retail' | 'df';

/** Posts a vendor submission and waits on the transaction id it answers (202 Accepted). */
export async function submit(
  ctx: ActionContext,
  api: TransactionApi,
  operation: string,
  path: string,
  body: unknown,
): Promise<ActionOutcome> {
  const { body: answer } = await ctx
    .sp()
    .request<{ payload?: { transactionId: string }; transactionId?: string }>(operation, {
      method: 'POST',
      path,
      body,
    });
  const id = (api === 'retail' ? answer.payload?.transactionId : answer.transactionId) ?? '';
  return waiting(id, { transactionId: id, status: 'Processing' });
}

/** A transaction's status: getTransaction (Vendor Transaction Status v1) or getTransactionStatus (DF 2021-12-28). */
export async function readTransaction(ctx: ActionContext, api: TransactionApi, id: string): Promise<Transaction> {
  if (api === 'retail') {
    const { body } = await ctx.sp().request<{ payload: { transactionStatus: Transaction } }>('getTransaction', {
      method: 'GET',
      path: `/vendor/transactions/v1/transactions/${encodeURIComponent(id)}`,
    });
    return body.payload.transactionStatus;
  }
  const { body } = await ctx.sp().request<{ transactionStatus: Transaction }>('getTransactionStatus', {
    method: 'GET',
    path: `/vendor/directFulfillment/transactions/2021-12-28/transactions/${encodeURIComponent(id)}`,
  });
  return body.transactionStatus;
}

/**
 * The check of a submission: Processing waits again, Success is COMPLETED, Failure BLOCKED_INVALID_INPUT with the
 * transaction's errors (the marketplace refused the submitted data).
 */
export const checkTransaction =
  (api: TransactionApi) =>
  async (ctx: ActionContext, id: string): Promise<ActionOutcome> => {
    const t = await readTransaction(ctx, api, id);
    const result = { transactionId: t.transactionId, status: t.status, errors: t.errors ?? [] };
    if (t.status === 'Processing') return waiting(id, result);
    if (t.status === 'Success') return completed(result);
    return {
      status: 'BLOCKED_INVALID_INPUT',
      result,
      error: {
        status: 400,
        code: t.errors?.[0]?.code ?? 'TRANSACTION_FAILED',
        message: (t.errors ?? []).map((e) => e.message).join(' ') || 'the marketplace refused the submission',
      },
    };
  };
