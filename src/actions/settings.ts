import type { Kysely } from 'kysely';
import type { ControlPlane } from '../db/control-plane.ts';
import type { ControlStore } from '../db/control-store.ts';
import { MktdataError } from '../errors.ts';
import { requireConnection } from '../control/connections/connections.ts';
import { actionTypes, type ActionType } from '../vocabulary/action-types.ts';
import { requireOrganization } from '../control/organizations.ts';

// Every query on control.actions_beta, control.action_types_enabled and control.connection_access is in this file
// (test/db/control-table-modules.test.ts).

/** `mktdata org beta --actions on|off`: whether the organization has the actions private beta (else 501). */
export async function setActionsBeta(
  wh: ControlStore,
  organizationId: string,
  on: boolean,
  at = new Date(),
): Promise<void> {
  await requireOrganization(wh, organizationId);
  await wh.db.deleteFrom('control.actions_beta').where('organization_id', '=', organizationId).execute();
  if (on)
    await wh.db
      .insertInto('control.actions_beta')
      .values({ organization_id: organizationId, since: at.toISOString() })
      .execute();
}

/** Whether the organization has the actions private beta. */
export async function hasActionsBeta(db: Kysely<ControlPlane>, organizationId: string): Promise<boolean> {
  const row = await db
    .selectFrom('control.actions_beta')
    .select('organization_id')
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row !== undefined;
}

/** `mktdata actions enable|disable`: the types an organization's live actions may use (else 412); returns them all. */
export async function setActionTypes(
  wh: ControlStore,
  organizationId: string,
  types: string[],
  enabled: boolean,
  at = new Date(),
): Promise<string[]> {
  await requireOrganization(wh, organizationId);
  const unknown = types.filter((t) => !actionTypes.includes(t as ActionType));
  if (unknown.length > 0)
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: '--type',
      reason: `not an action type of the spec: ${unknown.join(', ')}`,
    });
  await wh.db
    .deleteFrom('control.action_types_enabled')
    .where('organization_id', '=', organizationId)
    .where('type', 'in', types)
    .execute();
  if (enabled)
    await wh.db
      .insertInto('control.action_types_enabled')
      .values(types.map((type) => ({ organization_id: organizationId, type, enabled_at: at.toISOString() })))
      .execute();
  const rows = await wh.db
    .selectFrom('control.action_types_enabled')
    .select('type')
    .where('organization_id', '=', organizationId)
    .orderBy('type')
    .execute();
  return rows.map((r) => r.type);
}

/** Whether the organization enabled this action type for its live actions. */
export async function actionTypeEnabled(db: Kysely<ControlPlane>, organizationId: string, type: string) {
  const enabled = await db
    .selectFrom('control.action_types_enabled')
    .select('type')
    .where('organization_id', '=', organizationId)
    .where('type', '=', type)
    .executeTakeFirst();
  return enabled !== undefined;
}

/** `mktdata connections access`: the access level the seller granted (READ, or READ_AND_WRITE for live actions). */
export async function setConnectionAccess(
  wh: ControlStore,
  connectionId: string,
  level: 'READ' | 'READ_AND_WRITE',
  at = new Date(),
): Promise<void> {
  await requireConnection(wh, connectionId);
  await wh.db.deleteFrom('control.connection_access').where('connection_id', '=', connectionId).execute();
  await wh.db
    .insertInto('control.connection_access')
    .values({ connection_id: connectionId, access_level: level, updated_at: at.toISOString() })
    .execute();
}

/** The access level the seller granted on the connection, or undefined when none was set. */
export async function accessLevelOf(db: Kysely<ControlPlane>, connectionId: string) {
  const access = await db
    .selectFrom('control.connection_access')
    .select('access_level')
    .where('connection_id', '=', connectionId)
    .executeTakeFirst();
  return access?.access_level;
}

/** The connections whose seller granted write access (READ_AND_WRITE). */
export async function writableConnections(db: Kysely<ControlPlane>): Promise<Set<string>> {
  const rows = await db
    .selectFrom('control.connection_access')
    .select('connection_id')
    .where('access_level', '=', 'READ_AND_WRITE')
    .execute();
  return new Set(rows.map((r) => r.connection_id));
}
