import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Kysely } from 'kysely';
import type { ControlPlane } from '../db/control-plane.ts';
import type { ControlStore } from '../db/control-store.ts';
import { MktdataError } from '../errors.ts';

// control.organizations and their control.api_keys: every query on either is in this file
// (test/db/control-table-modules.test.ts).

/**
 * Creates an organization with a token balance, or unmetered (`tokens` null: its usage is recorded, it never runs
 * out); returns its id.
 */
export async function createOrganization(
  wh: ControlStore,
  input: { name: string; tokens: number | null; id?: string },
): Promise<string> {
  const id = input.id ?? randomUUID();
  await wh.db
    .insertInto('control.organizations')
    .values({ id, name: input.name, token_balance: input.tokens, created_at: new Date().toISOString() })
    .execute();
  return id;
}

/** Fails with ERR_ORG_NOT_FOUND unless the organization exists. */
export async function requireOrganization(wh: ControlStore, id: string): Promise<void> {
  if (!(await findOrganization(wh.db, id))) throw new MktdataError('ERR_ORG_NOT_FOUND', { id });
}

/** sha256 of an API key: the only form in which keys are stored. */
export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** Creates an API key for an organization; the key is returned once and stored only hashed. */
export async function createApiKey(wh: ControlStore, organizationId: string): Promise<string> {
  await requireOrganization(wh, organizationId);
  const key = `mkt_${randomBytes(24).toString('base64url')}`;
  await wh.db
    .insertInto('control.api_keys')
    .values({
      id: randomUUID(),
      organization_id: organizationId,
      key_hash: hashApiKey(key),
      key_prefix: key.slice(0, 8),
      created_at: new Date().toISOString(),
      revoked_at: null,
    })
    .execute();
  return key;
}

/** The organization of a live API key, by the key's hash (`hashApiKey`), or undefined. */
export async function organizationOfKey(db: Kysely<ControlPlane>, keyHash: string): Promise<string | undefined> {
  const found = await db
    .selectFrom('control.api_keys')
    .select('organization_id')
    .where('key_hash', '=', keyHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return found?.organization_id;
}

/** Revocations of API keys in this process (key hashes): the API's key cache forgets them at once. */
export const keyRevocations = new EventEmitter<{ revoked: [keyHash: string] }>().setMaxListeners(0);

/** The API keys (never the keys themselves: their first characters), newest first; of one organization if given. */
export async function listApiKeys(wh: ControlStore, organizationId?: string) {
  let query = wh.db
    .selectFrom('control.api_keys as k')
    .innerJoin('control.organizations as o', 'o.id', 'k.organization_id')
    .select(['k.id', 'k.organization_id', 'o.name as organization', 'k.key_prefix', 'k.created_at', 'k.revoked_at'])
    .orderBy('k.created_at', 'desc');
  if (organizationId) query = query.where('k.organization_id', '=', organizationId);
  return query.execute();
}

/**
 * Revokes an API key by its id (`mktdata keys list` shows it): its requests get 401 and its console sessions end at
 * once. Revoking a revoked key changes nothing; returns when it was revoked.
 */
export async function revokeApiKey(wh: ControlStore, id: string, now = new Date()): Promise<string> {
  const key = await wh.db
    .selectFrom('control.api_keys')
    .select(['key_hash', 'revoked_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!key)
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: '--id',
      reason: `no API key ${id} (\`mktdata keys list\` shows their ids)`,
    });
  if (key.revoked_at) return new Date(String(key.revoked_at)).toISOString();
  await wh.db.updateTable('control.api_keys').set({ revoked_at: now.toISOString() }).where('id', '=', id).execute();
  keyRevocations.emit('revoked', key.key_hash);
  return now.toISOString();
}

/** Every organization with its token balance and how many connections and live API keys it has. */
export async function listOrganizations(wh: ControlStore) {
  return wh.db
    .selectFrom('control.organizations as o')
    .select((eb) => [
      'o.id',
      'o.name',
      'o.token_balance',
      'o.created_at',
      eb
        .selectFrom('control.connections as c')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('c.organization_id', '=', 'o.id')
        .as('connections'),
      eb
        .selectFrom('control.api_keys as k')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('k.organization_id', '=', 'o.id')
        .where('k.revoked_at', 'is', null)
        .as('api_keys'),
    ])
    .orderBy('o.name')
    .execute();
}

/** Every organization's id and token balance (the metrics). */
export async function tokenBalances(db: Kysely<ControlPlane>): Promise<{ id: string; tokens: number }[]> {
  const rows = await db.selectFrom('control.organizations').select(['id', 'token_balance']).execute();
  return rows.map((r) => ({ id: r.id, tokens: Number(r.token_balance) }));
}

// The queries on control.organizations that other modules call.

/** The organization of that id (its name and token balance), or undefined. */
export function findOrganization(db: Kysely<ControlPlane>, id: string) {
  return db
    .selectFrom('control.organizations')
    .select(['id', 'name', 'token_balance'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The id of an organization of that name, or undefined. */
export async function organizationNamed(db: Kysely<ControlPlane>, name: string): Promise<string | undefined> {
  const org = await db.selectFrom('control.organizations').select('id').where('name', '=', name).executeTakeFirst();
  return org?.id;
}

/**
 * Debits `tokens` from the organization's balance unless that would take it below zero (an unmetered organization is
 * never short); false when nothing was debited. Conditional in one statement, so two debits racing for the last
 * tokens cannot both pass.
 */
export async function debitTokens(db: Kysely<ControlPlane>, id: string, tokens: number): Promise<boolean> {
  const debited = await db
    .updateTable('control.organizations')
    .set((eb) => ({ token_balance: eb('token_balance', '-', tokens) }))
    .where('id', '=', id)
    .where((eb) => eb.or([eb('token_balance', '>=', tokens), eb('token_balance', 'is', null)]))
    .executeTakeFirst();
  return debited.numUpdatedRows !== 0n;
}

/** Gives back `tokens` a failed operation was charged; an unmetered organization stays unmetered. */
export async function returnTokens(db: Kysely<ControlPlane>, id: string, tokens: number): Promise<void> {
  await db
    .updateTable('control.organizations')
    .set((eb) => ({ token_balance: eb('token_balance', '+', tokens) }))
    .where('id', '=', id)
    .where('token_balance', 'is not', null)
    .execute();
}

/** Adds `tokens` to the organization's balance (an unmetered one starts from zero); returns the new balance. */
export async function creditTokens(db: Kysely<ControlPlane>, id: string, tokens: number): Promise<number> {
  const row = await db
    .updateTable('control.organizations')
    .set((eb) => ({ token_balance: eb(eb.fn.coalesce('token_balance', eb.lit(0)), '+', tokens) }))
    .where('id', '=', id)
    .returning('token_balance')
    .executeTakeFirstOrThrow();
  return Number(row.token_balance);
}
