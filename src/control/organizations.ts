import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { ControlStore } from '../db/control-store.ts';
import { MktdataError } from '../errors.ts';

/** Creates an organization with a token balance; returns its id. */
export async function createOrganization(wh: ControlStore, input: { name: string; tokens: number; id?: string }): Promise<string> {
  const id = input.id ?? randomUUID();
  await wh.db
    .insertInto('control.organizations')
    .values({ id, name: input.name, token_balance: input.tokens, created_at: new Date().toISOString() })
    .execute();
  return id;
}

/** Fails with ERR_ORG_NOT_FOUND unless the organization exists. */
export async function requireOrganization(wh: ControlStore, id: string): Promise<void> {
  const found = await wh.db.selectFrom('control.organizations').select('id').where('id', '=', id).executeTakeFirst();
  if (!found) throw new MktdataError('ERR_ORG_NOT_FOUND', { id });
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
