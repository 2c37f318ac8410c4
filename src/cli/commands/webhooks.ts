import type { Warehouse } from '../../db/warehouse.ts';
import { MktdataError } from '../../errors.ts';
import { checkSubscriptionUrl } from '../../api/routes/webhooks.ts';
import { allowedNetworks } from '../../webhooks/address.ts';
import {
  createSubscription,
  deleteSubscription,
  listSubscriptions,
  messageTypes,
  replay,
} from '../../webhooks/subscriptions.ts';
import { formatTable } from '../output.ts';
import { requireOrganization } from '../../control/organizations.ts';

/** `mktdata webhooks add`: prints the signing secret once, then the subscription id on the last line. */
export async function addWebhook(
  wh: Warehouse,
  o: { org: string; url: string; types?: string[]; seller?: string[] },
): Promise<void> {
  await requireOrganization(wh, o.org);
  const unknown = o.types?.filter((t) => !messageTypes.includes(t)) ?? [];
  if (unknown.length > 0)
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: '--types',
      reason: `unknown message type(s) ${unknown.join(', ')}; \`curl …/api/v1/spec/webhook-scheme\` lists them`,
    });
  await checkSubscriptionUrl(o.url, allowedNetworks());
  const created = await createSubscription(wh, o.org, {
    url: o.url,
    messageTypes: o.types,
    sellerOrVendorIds: o.seller,
  });
  console.log(`secret  ${created.secret}  (shown once: the receiver verifies signatures with it)`);
  console.log(created.id);
}

/** `mktdata webhooks list`: every subscription (of one organization with --org), never a secret. */
export async function listWebhooks(wh: Warehouse, o: { org?: string; format: 'table' | 'json' }): Promise<void> {
  const subscriptions = await listSubscriptions(wh, o.org ?? null);
  if (o.format === 'json') return console.log(JSON.stringify(subscriptions, null, 2));
  console.log(
    formatTable(
      ['id', 'organization', 'url', 'status', 'types', 'sellers'],
      subscriptions.map((s) => [
        s.id,
        s.organizationId,
        s.url,
        s.disabledReason ? `DISABLED: ${s.disabledReason}` : s.status,
        s.messageTypes.length,
        s.sellerOrVendorIds?.length ?? 'all',
      ]),
    ),
  );
}

export async function removeWebhook(wh: Warehouse, id: string): Promise<void> {
  await deleteSubscription(wh, null, id);
  console.log(`removed webhook subscription ${id}`);
}

/** `mktdata webhooks replay`: queues again what the subscription received since a time; `serve` delivers it. */
export async function replayWebhook(wh: Warehouse, o: { subscription: string; since: string }): Promise<void> {
  const since = new Date(o.since);
  if (!/^\d{4}-\d{2}-\d{2}/.test(o.since) || Number.isNaN(since.getTime()))
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: '--since',
      reason: `not an ISO 8601 date or date-time: ${o.since}`,
    });
  const queued = await replay(wh, o.subscription, since);
  console.log(
    `queued ${queued} event(s) since ${since.toISOString()} for ${o.subscription}; \`mktdata serve\` delivers them (same webhook-id: receivers drop what they already have)`,
  );
}
