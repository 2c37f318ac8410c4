import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { ControlStore } from '../db/control-store.ts';
import { connectionTypes, type ConnectionType } from '../db/control-plane.ts';
import { MktdataError } from '../errors.ts';
import { loadMarketplaces } from './marketplaces.ts';
import { requireOrganization } from './organizations.ts';

export const addConnectionSchema = z.object({
  organizationId: z.string().min(1),
  name: z.string().trim().min(1).max(256),
  marketplaceId: z.string().min(1),
  type: z.enum(connectionTypes).default('SELLER_CENTRAL'),
  sellerId: z.string().trim().min(1).optional(),
  id: z.string().uuid().optional(),
});
export type AddConnection = z.input<typeof addConnectionSchema>;

/** Adds a connection (a seller or vendor account in one marketplace); returns its sellerOrVendorId. */
export async function addConnection(wh: ControlStore, input: AddConnection): Promise<string> {
  const parsed = addConnectionSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new MktdataError('ERR_INPUT_INVALID', { where: issue.path.join('.'), reason: issue.message });
  }
  const c = parsed.data;
  await requireOrganization(wh, c.organizationId);
  if (!loadMarketplaces().has(c.marketplaceId))
    throw new MktdataError('ERR_MARKETPLACE_UNKNOWN', { id: c.marketplaceId });
  const id = c.id ?? randomUUID();
  await wh.db
    .insertInto('control.connections')
    .values({
      id,
      organization_id: c.organizationId,
      name: c.name,
      type: c.type,
      marketplace_id: c.marketplaceId,
      seller_id: c.sellerId ?? null,
      created_at: new Date().toISOString(),
    })
    .execute();
  return id;
}

/** The connection of that id, or ERR_CONNECTION_NOT_FOUND. */
export async function requireConnection(wh: ControlStore, id: string) {
  const found = await wh.db.selectFrom('control.connections').selectAll().where('id', '=', id).executeTakeFirst();
  if (!found) throw new MktdataError('ERR_CONNECTION_NOT_FOUND', { id });
  return found;
}

/** The organization's connection of that id (ERR_CONNECTION_NOT_FOUND for another's), which must be of `type`. */
export async function requireOwnConnection(
  wh: ControlStore,
  organizationId: string,
  id: string,
  type: ConnectionType,
  what: string,
) {
  const found = await wh.db
    .selectFrom('control.connections')
    .select(['id', 'type'])
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  if (!found) throw new MktdataError('ERR_CONNECTION_NOT_FOUND', { id });
  if (found.type !== type) throw new MktdataError('ERR_CONNECTION_TYPE', { id, type: found.type, what, needed: type });
  return found;
}
