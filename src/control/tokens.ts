import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ControlPlane } from '../db/control-plane.ts';
import type { ControlStore } from '../db/control-store.ts';
import { MktdataError } from '../errors.ts';
import { creditTokens, debitTokens, findOrganization, requireOrganization, returnTokens } from './organizations.ts';

// control.usage_records, one row per metered operation: every query on it is in this file
// (test/db/control-table-modules.test.ts).

/** The enums of a usage record (spec document 000, "Usage"); specific types beyond the spec's list are not invented. */
export const usageTypes = [
  'EXPORTS',
  'AI',
  'INTEGRATIONS_WAREHOUSE',
  'INTEGRATIONS_API',
  'ACTIONS',
  'COGS',
  'VENDOR_CODE',
  'PLUGINS',
  'INTEGRATIONS',
  'TOKENS',
  'ORGANIZATION',
  'CONNECTIONS',
  'SETTINGS',
] as const;
export const usagePools = ['FREE', 'CREDIT', 'PLAN', 'BUNDLE', 'EXTRA'] as const;
export const specificUsageTypes = [
  'AI_CHAT_STANDARD_MODE',
  'AI_CHAT_ANALYST_MODE',
  'AI_CHAT_INVESTIGATION_MODE',
  'AI_SCHEDULED_PROMPT_STANDARD_MODE',
  'AI_SCHEDULED_PROMPT_ANALYST_MODE',
  'AI_API_PROMPT_STANDARD_MODE',
  'AI_API_PROMPT_ANALYST_MODE',
  'AI_MCP_PROMPT_STANDARD_MODE',
  'AI_MCP_PROMPT_ANALYST_MODE',
  'INTEGRATIONS_API_SP_API_PROXY_STANDARD',
  'INTEGRATIONS_API_ADS_API_PROXY_STANDARD',
  'INTEGRATIONS_WEBHOOKS_STANDARD',
  'INTEGRATIONS_WAREHOUSE_RAW',
  'INTEGRATIONS_WAREHOUSE_INTEGRATED',
  'ACTIONS_API_STANDARD',
  'ACTIONS_MCP_STANDARD',
  'EXPORTS_UI_STANDARD',
  'EXPORTS_EXPLORER_STANDARD',
  'EXPORTS_API_STANDARD',
  'EXPORTS_MCP_STANDARD',
  'EXPORTS_HOME_STANDARD',
  'EXPORTS_AUTOMATION_STANDARD',
  'EXPORTS_REPORTS_STANDARD',
  'EXPORTS_RECURRING_STANDARD',
  'COGS_API_STANDARD',
  'COGS_MCP_STANDARD',
  'VENDOR_CODE_API_STANDARD',
  'VENDOR_CODE_MCP_STANDARD',
  'PLUGINS_GET',
  'PLUGINS_CREATE',
  'PLUGINS_EDIT',
  'PLUGINS_ENABLE',
  'PLUGINS_DISABLE',
  'PLUGINS_SKILLS_GET',
  'EXPORTS_API_GET',
  'EXPORTS_API_LIST',
  'EXPORTS_MCP_GET',
  'ACTIONS_API_GET',
  'ACTIONS_API_LIST',
  'ACTIONS_MCP_GET',
  'ACTIONS_MCP_LIST',
  'INTEGRATIONS_API_KEY_CREATE',
  'INTEGRATIONS_MCP_KEY_CREATE',
  'INTEGRATIONS_OAUTH_AUTHORIZE',
  'INTEGRATIONS_WEBHOOK_CREATE',
  'INTEGRATIONS_WEBHOOK_REMOVE',
  'TOKENS_BUNDLE_PURCHASE',
  'TOKENS_BUNDLE_EXHAUSTION',
  'TOKENS_BUNDLE_EXPIRATION',
  'TOKENS_OVERDRAFT_RECONCILIATION',
] as const;

export interface Usage {
  usageType: (typeof usageTypes)[number];
  specificUsageType: (typeof specificUsageTypes)[number];
  tokens: number;
  resourceId: string | null;
}

/**
 * Debits a metered operation's tokens and writes its one usage record, inside the caller's transaction. The debit
 * is conditional on the balance, so two operations racing for the last tokens cannot both be charged; false when
 * the balance is short (nothing debited, nothing recorded). An unmetered organization (no balance) is recorded and
 * never short.
 */
export async function charge(
  trx: Kysely<ControlPlane>,
  organizationId: string,
  usage: Usage,
  at: Date,
): Promise<boolean> {
  if (!(await debitTokens(trx, organizationId, usage.tokens))) return false;
  await trx
    .insertInto('control.usage_records')
    .values({
      id: randomUUID(),
      organization_id: organizationId,
      usage_type: usage.usageType,
      usage_pool: 'PLAN',
      specific_usage_type: usage.specificUsageType,
      tokens: usage.tokens,
      resource_id: usage.resourceId,
      used_at: at.toISOString(),
    })
    .execute();
  return true;
}

/**
 * Runs `work` after charging `usage` in one transaction: ERR_NO_TOKENS (402) and nothing done when the balance is
 * short.
 */
export async function charged<T>(
  wh: ControlStore,
  organizationId: string,
  usage: Usage,
  at: Date,
  work: (trx: Kysely<ControlPlane>) => Promise<T>,
): Promise<T> {
  return wh.db.transaction().execute(async (trx) => {
    if (!(await charge(trx, organizationId, usage, at)))
      throw new MktdataError('ERR_NO_TOKENS', { org: organizationId, tokens: usage.tokens });
    return work(trx);
  });
}

/**
 * Undoes a `charge` whose work then failed (an MCP query charged as it started): its tokens back and its usage record
 * removed, in one transaction.
 */
export async function refund(wh: ControlStore, organizationId: string, usage: Usage): Promise<void> {
  await wh.db.transaction().execute(async (trx) => {
    await returnTokens(trx, organizationId, usage.tokens);
    await trx
      .deleteFrom('control.usage_records')
      .where('organization_id', '=', organizationId)
      .where('resource_id', '=', usage.resourceId)
      .execute();
  });
}

/**
 * Adds tokens to an organization's balance (`mktdata org tokens --add`); returns the new balance. An unmetered
 * organization is metered from then on, with these tokens.
 */
export async function addTokens(wh: ControlStore, organizationId: string, tokens: number): Promise<number> {
  await requireOrganization(wh, organizationId);
  return creditTokens(wh.db, organizationId, tokens);
}

/** An organization's token balance; null when it is unmetered. */
export async function tokenBalance(wh: ControlStore, organizationId: string): Promise<number | null> {
  const org = await findOrganization(wh.db, organizationId);
  if (!org) throw new MktdataError('ERR_ORG_NOT_FOUND', { id: organizationId });
  return org.token_balance === null ? null : Number(org.token_balance);
}

/** ERR_NO_TOKENS (402) unless the organization has `tokens` left (or is unmetered): the spec's 402. */
export async function requireTokens(wh: ControlStore, organizationId: string, tokens = 1): Promise<void> {
  const balance = await tokenBalance(wh, organizationId);
  if (balance !== null && balance < tokens) throw new MktdataError('ERR_NO_TOKENS', { org: organizationId, tokens });
}

/** The filters and page of GET /usage-logs (bounds inclusive). */
export interface UsageFilters {
  usedAtFrom?: string;
  usedAtTo?: string;
  usageTypes?: string[];
  usagePools?: string[];
  specificUsageTypes?: string[];
  page: number;
  pageSize: number;
}

/** A page of the organization's usage records, newest first, and how many match. */
export async function usageRecordsOf(db: Kysely<ControlPlane>, organizationId: string, q: UsageFilters) {
  let base = db.selectFrom('control.usage_records').where('organization_id', '=', organizationId);
  if (q.usedAtFrom) base = base.where('used_at', '>=', new Date(q.usedAtFrom).toISOString());
  if (q.usedAtTo) base = base.where('used_at', '<=', new Date(q.usedAtTo).toISOString());
  if (q.usageTypes) base = base.where('usage_type', 'in', q.usageTypes);
  if (q.usagePools) base = base.where('usage_pool', 'in', q.usagePools);
  if (q.specificUsageTypes) base = base.where('specific_usage_type', 'in', q.specificUsageTypes);
  const total = await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('used_at', 'desc')
    .orderBy('id')
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize)
    .execute();
  return { rows, total: Number(total.n) };
}

/** Whether a usage record says the resource (an action, an export) was paid for already. */
export async function paidFor(db: Kysely<ControlPlane>, resourceId: string): Promise<boolean> {
  const paid = await db
    .selectFrom('control.usage_records')
    .select('id')
    .where('resource_id', '=', resourceId)
    .executeTakeFirst();
  return paid !== undefined;
}
