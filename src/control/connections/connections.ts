import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { LIST, listValue, VARCHAR, type DuckDBConnection } from '@duckdb/node-api';
import { sql, type Kysely, type Selectable } from 'kysely';
import { z } from 'zod';
import type { ControlStore } from '../../db/control-store.ts';
import { connectionTypes, type ConnectionType, type ControlPlane } from '../../db/control-plane.ts';
import { tableColumns } from '../../db/sql.ts';
import { modelsDir } from '../../lib/project-paths.ts';
import { MktdataError } from '../../errors.ts';
import { loadMarketplaces } from '../marketplaces.ts';
import { requireOrganization } from '../organizations.ts';

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
  const found = await findConnection(wh.db, id);
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
  const found = await ownConnection(wh.db, organizationId, id);
  if (!found) throw new MktdataError('ERR_CONNECTION_NOT_FOUND', { id });
  if (found.type !== type) throw new MktdataError('ERR_CONNECTION_TYPE', { id, type: found.type, what, needed: type });
  return found;
}

// Every query on control.connections goes through the functions below and load-stages.ts beside them
// (test/db/control-table-modules.test.ts).

/** A connection's row. */
export type ConnectionRow = Selectable<ControlPlane['control.connections']>;
/** A connection as the webhook events describe it. */
export type ConnectionSummary = Pick<ConnectionRow, 'id' | 'organization_id' | 'name' | 'marketplace_id' | 'seller_id'>;
type Db = Kysely<ControlPlane>;

/** The connection of that id, or undefined. */
export function findConnection(db: Db, id: string) {
  return db.selectFrom('control.connections').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The organization's connection of that id (its id and type), or undefined for an unknown or another's. */
export function ownConnection(db: Db, organizationId: string, id: string) {
  return db
    .selectFrom('control.connections')
    .select(['id', 'type'])
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

/** The organization's connections among `ids` (another organization's are left out). */
export function ownConnectionsAmong(db: Db, organizationId: string, ids: string[]) {
  return db
    .selectFrom('control.connections')
    .select(['id', 'organization_id', 'type', 'marketplace_id'])
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids.length ? ids : [''])
    .execute();
}

/** What an action on a connection needs of it; fails (kysely's NoResultError) when there is no such connection. */
export function connectionAccount(db: Db, id: string) {
  return db
    .selectFrom('control.connections')
    .select(['seller_id', 'marketplace_id', 'type'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** The organization's first connection of that account (merchant id, marketplace and type), or undefined. */
export function connectionOfAccount(
  db: Db,
  account: { organizationId: string; marketplaceId: string; sellerId: string; type: ConnectionType },
) {
  return db
    .selectFrom('control.connections')
    .select('id')
    .where('organization_id', '=', account.organizationId)
    .where('marketplace_id', '=', account.marketplaceId)
    .where('seller_id', '=', account.sellerId)
    .where('type', '=', account.type)
    .orderBy('created_at')
    .executeTakeFirst();
}

/**
 * A page of the organization's connections by name then id, and how many there are in all: those whose name contains
 * `query` (any case), in `marketplaceIds` when given.
 */
export async function searchConnections(
  db: Db,
  organizationId: string,
  filter: { query?: string; marketplaceIds: string[] | null; page: number; pageSize: number },
) {
  let base = db.selectFrom('control.connections').where('organization_id', '=', organizationId);
  if (filter.query) base = base.where(sql<boolean>`contains(lower(name), ${filter.query.toLowerCase()})`);
  if (filter.marketplaceIds)
    base = base.where('marketplace_id', 'in', filter.marketplaceIds.length > 0 ? filter.marketplaceIds : ['']);
  const total = await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('name')
    .orderBy('id')
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize)
    .execute();
  return { total: total.n, rows };
}

/** The connections a console scope sees (every one when `organizationId` is undefined), by organization and name. */
export function connectionsWithOrganization(db: Db, organizationId: string | undefined) {
  let query = db
    .selectFrom('control.connections as c')
    .innerJoin('control.organizations as o', 'o.id', 'c.organization_id')
    .select([
      'c.id',
      'c.name',
      'c.type',
      'c.marketplace_id',
      'c.seller_id',
      'c.initial_load_stage',
      'c.created_at',
      'o.name as organization',
    ]);
  if (organizationId !== undefined) query = query.where('c.organization_id', '=', organizationId);
  return query.orderBy('o.name').orderBy('c.name').execute();
}

/** Every connection, by name. */
export function connectionsByName(db: Db) {
  return db.selectFrom('control.connections').selectAll().orderBy('name').execute();
}

/** The id of every connection, in order. */
export async function connectionIds(db: Db): Promise<string[]> {
  return (await db.selectFrom('control.connections').select('id').orderBy('id').execute()).map((c) => c.id);
}

/** The marketplaces some connection is in. */
export async function marketplacesInUse(db: Db): Promise<string[]> {
  const used = await db.selectFrom('control.connections').select('marketplace_id').distinct().execute();
  return used.map((c) => c.marketplace_id);
}

/** Every connection's organization, type and marketplace, by id. */
export function connectionAccounts(db: Db) {
  return db
    .selectFrom('control.connections')
    .select(['id', 'organization_id', 'type', 'marketplace_id'])
    .orderBy('id')
    .execute();
}

/** The connections with a seller id (those notifications can be routed to), by id. */
export function connectionsWithSellerId(db: Db) {
  return db
    .selectFrom('control.connections')
    .select(['id', 'marketplace_id', 'seller_id'])
    .where('seller_id', 'is not', null)
    .orderBy('id')
    .execute();
}

/** The organizations of these connections (one row per connection). */
export async function organizationsOfConnections(db: Db, ids: string[]): Promise<string[]> {
  const rows = await db.selectFrom('control.connections').select('organization_id').where('id', 'in', ids).execute();
  return rows.map((r) => r.organization_id);
}

/** Records the seller id that new SP-API credentials name, unless the connection has one. */
export async function setSellerIdIfMissing(db: Db, id: string, sellerId: string): Promise<void> {
  await db
    .updateTable('control.connections')
    .set({ seller_id: sellerId })
    .where('id', '=', id)
    .where('seller_id', 'is', null)
    .execute();
}

/**
 * Every connection with its marketplace's timezone, by id, read through the control connection. Before the first
 * build made seeds.marketplaces, the seed file itself gives the timezones.
 */
export async function connectionTimezones(db: Db): Promise<{ id: string; timezone: string }[]> {
  const read = (marketplaces: ReturnType<typeof sql>) =>
    sql<{ id: string; timezone: string }>`select c.id, coalesce(m.timezone, 'UTC') as timezone
      from control.connections as c left join ${marketplaces} as m using (marketplace_id) order by c.id`.execute(db);
  const { rows } = await read(sql`seeds.marketplaces`).catch(() =>
    read(sql`read_csv(${join(modelsDir, 'seeds', 'marketplaces.csv')}, header=true)`),
  );
  return rows;
}

// The queries below run on the warehouse's own DuckDB connection, inside the transaction of whoever holds it.

/**
 * Every connection with its marketplace's timezone, by id, on the warehouse's connection (UTC for all before the
 * first build made seeds.marketplaces).
 */
export async function connectionTimezonesIn(
  duck: DuckDBConnection,
): Promise<{ connection_id: string; timezone: string }[]> {
  const seeded = (await tableColumns(duck, 'seeds.marketplaces')) !== undefined;
  const zones = seeded ? 'seeds.marketplaces' : `(select null::varchar as marketplace_id, null::varchar as timezone)`;
  const reader = await duck.runAndReadAll(`
    select c.id as connection_id, coalesce(m.timezone, 'UTC') as timezone
    from control.connections as c left join ${zones} as m using (marketplace_id)
    order by c.id`);
  return reader.getRowObjectsJson() as unknown as { connection_id: string; timezone: string }[];
}

/** The connection of that id as webhook events describe it, or undefined. */
export async function connectionSummary(duck: DuckDBConnection, id: string): Promise<ConnectionSummary | undefined> {
  const reader = await duck.runAndReadAll(
    `select id, organization_id, name, marketplace_id, seller_id from control.connections where id = $id`,
    { id },
  );
  return (reader.getRowObjectsJson() as unknown as ConnectionSummary[])[0];
}

/** Every connection of the organization of connection `id`, by id (none when it is not a known connection). */
export async function sameOrganizationConnections(duck: DuckDBConnection, id: string): Promise<ConnectionSummary[]> {
  const reader = await duck.runAndReadAll(
    `select id, organization_id, name, marketplace_id, seller_id from control.connections
     where organization_id = (select organization_id from control.connections where id = $id) order by id`,
    { id },
  );
  return reader.getRowObjectsJson() as unknown as ConnectionSummary[];
}

/**
 * Which of these connections some live webhook subscription receives events of (of any type): a question about the
 * connections, answered from control.webhook_subscriptions.
 */
export async function receivingConnections(duck: DuckDBConnection, ids: string[]): Promise<Set<string>> {
  const reader = await duck.runAndReadAll(
    `
    select distinct c.id
    from control.connections as c join control.webhook_subscriptions as s on s.organization_id = c.organization_id
    where c.id in (select unnest($ids)) and s.deleted_at is null and s.disabled_at is null
      and (s.seller_or_vendor_ids is null or list_contains(from_json(s.seller_or_vendor_ids, '["VARCHAR"]'), c.id))`,
    { ids: listValue(ids) },
    { ids: LIST(VARCHAR) },
  );
  return new Set(reader.getRowsJson().map(([id]) => String(id)));
}

/** Deletes the connection's row (its other rows are the caller's to delete first, in the same transaction). */
export async function deleteConnection(duck: DuckDBConnection, id: string): Promise<void> {
  await duck.run(`delete from control.connections where id = $id`, { id });
}
