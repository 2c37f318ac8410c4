import { randomUUID } from 'node:crypto';
import type { ExpressionBuilder } from 'kysely';
import type { ControlPlane } from '../db/control-plane.ts';
import type { ControlStore } from '../db/control-store.ts';
import { MktdataError } from '../errors.ts';
import { ownConnection } from './connections/connections.ts';
import { charged } from './tokens.ts';

/** One VendorCodeUpsertRequest row: exactly one of asin and sku. */
export type VendorCodeRow = ({ asin: string; sku?: undefined } | { sku: string; asin?: undefined }) & {
  vendorCode: string;
};

/**
 * ERR_CONNECTION_NOT_FOUND unless the connection is the organization's: vendor-code rows are kept "per seller or
 * vendor" (spec document 000, "What the service does"), and hybrid sellers have vendor codes, so any connection type
 * may hold them.
 */
async function requireOwn(wh: ControlStore, organizationId: string, id: string): Promise<void> {
  if (!(await ownConnection(wh.db, organizationId, id))) throw new MktdataError('ERR_CONNECTION_NOT_FOUND', { id });
}

const identifierOf = (r: VendorCodeRow) =>
  r.asin !== undefined
    ? { identifier_type: 'ASIN' as const, identifier: r.asin }
    : { identifier_type: 'SKU' as const, identifier: r.sku! };

/**
 * Upserts the vendor codes of a connection's ASINs and SKUs (control.vendor_codes, which models can join), the last row
 * of an item in one request winning; charges its token and writes its usage record in the same transaction. As on the
 * other metered upserts, the request is checked first (its shape 400, the connection 404) and the tokens last (402).
 */
export async function upsertVendorCodes(
  wh: ControlStore,
  organizationId: string,
  connectionId: string,
  rows: VendorCodeRow[],
  at: Date,
): Promise<{ changeId: string; upserted: number }> {
  await requireOwn(wh, organizationId, connectionId);
  const unique = [...new Map(rows.map((r) => [JSON.stringify(identifierOf(r)), r])).values()];
  const changeId = randomUUID();
  await charged(
    wh,
    organizationId,
    { usageType: 'VENDOR_CODE', specificUsageType: 'VENDOR_CODE_API_STANDARD', tokens: 1, resourceId: changeId },
    at,
    async (trx) => {
      await trx
        .insertInto('control.vendor_codes')
        .values(
          unique.map((r) => ({
            connection_id: connectionId,
            ...identifierOf(r),
            vendor_code: r.vendorCode,
            updated_at: at.toISOString(),
          })),
        )
        .onConflict((oc) =>
          oc.columns(['connection_id', 'identifier_type', 'identifier']).doUpdateSet((eb) => ({
            vendor_code: eb.ref('excluded.vendor_code'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    },
  );
  return { changeId, upserted: unique.length };
}

/** DELETE /vendor-codes: removes a connection's codes, only those of `sku` and/or `asin` when given. */
export async function deleteVendorCodes(
  wh: ControlStore,
  organizationId: string,
  filters: { sellerOrVendorId: string; sku?: string; asin?: string },
): Promise<number> {
  await requireOwn(wh, organizationId, filters.sellerOrVendorId);
  const items = (eb: ExpressionBuilder<ControlPlane, 'control.vendor_codes'>) => {
    const named = [
      ...(filters.asin !== undefined
        ? [eb.and([eb('identifier_type', '=', 'ASIN'), eb('identifier', '=', filters.asin)])]
        : []),
      ...(filters.sku !== undefined
        ? [eb.and([eb('identifier_type', '=', 'SKU'), eb('identifier', '=', filters.sku)])]
        : []),
    ];
    return eb.and([eb('connection_id', '=', filters.sellerOrVendorId), ...(named.length > 0 ? [eb.or(named)] : [])]);
  };
  const result = await wh.db.deleteFrom('control.vendor_codes').where(items).executeTakeFirst();
  return Number(result.numDeletedRows);
}
