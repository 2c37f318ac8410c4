import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Kysely } from 'kysely';
import type { ControlPlane } from '../db/control-plane.ts';
import type { ControlStore } from '../db/control-store.ts';
import { addConnection, connectionOfAccount } from './connections/connections.ts';

// control.invitations, the public links that connect an account: every query on it is in this file
// (test/db/control-table-modules.test.ts).

/** How long a public invitation link stays valid. */
export const invitationDays = 7;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Creates a public invitation; the token appears only in the returned link and is stored hashed. */
export async function createInvitation(
  wh: ControlStore,
  input: {
    organizationId: string;
    accountType: 'SELLER' | 'VENDOR';
    suggestedName?: string;
    marketplaceId?: string;
    now?: Date;
  },
) {
  const now = input.now ?? new Date();
  const token = randomBytes(24).toString('base64url');
  const id = randomUUID();
  const expiresAt = new Date(now.getTime() + invitationDays * 86_400_000).toISOString();
  await wh.db
    .insertInto('control.invitations')
    .values({
      id,
      organization_id: input.organizationId,
      token_hash: hashToken(token),
      account_type: input.accountType,
      suggested_name: input.suggestedName ?? null,
      marketplace_id: input.marketplaceId ?? null,
      created_at: now.toISOString(),
      expires_at: expiresAt,
      used_at: null,
      connection_id: null,
    })
    .execute();
  return { id, token, expiresAt };
}

/** The invitation of a token and whether it can still be used. */
export async function findInvitation(wh: ControlStore, token: string, now = new Date()) {
  const found = await wh.db
    .selectFrom('control.invitations')
    .selectAll()
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!found) return { status: 'unknown' as const };
  if (found.used_at) return { status: 'used' as const, invitation: found };
  if (Date.parse(String(found.expires_at)) <= now.getTime()) return { status: 'expired' as const, invitation: found };
  return { status: 'open' as const, invitation: found };
}

/** The invitation of that id, or undefined. */
export function invitationById(db: Kysely<ControlPlane>, id: string) {
  return db.selectFrom('control.invitations').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Registers the connection of an open invitation (the link can be used once). An account (merchant id and
 * marketplace) the organization has already connected is not added twice: its connection is returned, `existing`.
 */
export async function acceptInvitation(
  wh: ControlStore,
  invitation: { id: string; organization_id: string; account_type: 'SELLER' | 'VENDOR' },
  form: { name: string; marketplaceId: string; sellerId?: string },
): Promise<{ connectionId: string; existing: boolean }> {
  const type = invitation.account_type === 'VENDOR' ? 'VENDOR_CENTRAL' : 'SELLER_CENTRAL';
  const existing = form.sellerId
    ? await connectionOfAccount(wh.db, {
        organizationId: invitation.organization_id,
        marketplaceId: form.marketplaceId,
        sellerId: form.sellerId,
        type,
      })
    : undefined;
  const connectionId =
    existing?.id ??
    (await addConnection(wh, {
      organizationId: invitation.organization_id,
      name: form.name,
      marketplaceId: form.marketplaceId,
      type,
      ...(form.sellerId ? { sellerId: form.sellerId } : {}),
    }));
  await wh.db
    .updateTable('control.invitations')
    .set({ used_at: new Date().toISOString(), connection_id: connectionId })
    .where('id', '=', invitation.id)
    .execute();
  return { connectionId, existing: existing !== undefined };
}

/** Unlinks the invitations from a removed connection, on the warehouse's connection in the removal's transaction. */
export async function unlinkInvitationsOf(duck: DuckDBConnection, connectionId: string): Promise<void> {
  await duck.run(`update control.invitations set connection_id = null where connection_id = $id`, { id: connectionId });
}
