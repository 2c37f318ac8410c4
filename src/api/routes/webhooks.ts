import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MktdataError } from '../../errors.ts';
import { checkWebhookUrl, type Networks } from '../../webhooks/address.ts';
import {
  createSubscription,
  deleteSubscription,
  getSubscription,
  listSubscriptions,
  messageTypes,
} from '../../webhooks/subscriptions.ts';
import { deliveriesOf } from '../../webhooks/deliveries.ts';
import type { AppDeps } from '../app-deps.ts';
import { ApiNotFoundResponse, keyProtectedErrors, named, noContent, pageParam } from '../schemas/common.ts';

const security = [{ serviceApiKey: [] }];
const tags = ['Webhooks'];
const messageType = z.enum(messageTypes as [string, ...string[]]);

export const WebhookSubscriptionRequest = named(
  'WebhookSubscriptionRequest',
  z
    .object({
      url: z
        .url()
        .max(2048)
        .describe(
          'https, or http to a loopback address for development. Only public addresses are reached unless the operator allows a network.',
        ),
      messageTypes: z
        .array(messageType)
        .min(1)
        .max(messageTypes.length)
        .optional()
        .describe(
          'The messages wanted (GET /spec/webhook-scheme). Default: every type that is not highVolume; highVolume types only when named.',
        ),
      sellerOrVendorIds: z
        .array(z.string().min(1).max(64))
        .max(1000)
        .optional()
        .describe('Only events of these connections. Default: every connection of the organization.'),
    })
    .strict(),
);

const subscriptionFields = {
  id: z.string(),
  url: z.string(),
  messageTypes: z.array(z.string()),
  sellerOrVendorIds: z.array(z.string()).nullable(),
  status: z.enum(['ACTIVE', 'DISABLED']),
  disabledReason: z
    .string()
    .nullable()
    .describe('Why deliveries stopped: they failed for 24 hours. `mktdata webhooks replay` enables it again.'),
  createdAt: z.string(),
};
export const WebhookSubscriptionResponse = named('WebhookSubscriptionResponse', z.object(subscriptionFields));
export const WebhookSubscriptionCreatedResponse = named(
  'WebhookSubscriptionCreatedResponse',
  z.object({
    ...subscriptionFields,
    secret: z.string().describe('The signing secret (Standard Webhooks, `whsec_…`), shown this once.'),
  }),
);
export const WebhookSubscriptionsResponse = named(
  'WebhookSubscriptionsResponse',
  z.object({ items: z.array(WebhookSubscriptionResponse) }),
);

export const WebhookDeliveryResponse = named(
  'WebhookDeliveryResponse',
  z.object({
    id: z.string(),
    webhookId: z.string().describe('The `webhook-id` header: the same on every attempt and replay of one event.'),
    messageType: z.string(),
    status: z.enum(['PENDING', 'DELIVERED', 'FAILED', 'CANCELED']),
    attempts: z.number().int(),
    lastStatus: z.number().int().nullable().describe("The receiver's last HTTP status; null when no answer came."),
    lastError: z.string().nullable(),
    nextAttemptAt: z.string().nullable(),
    createdAt: z.string(),
    deliveredAt: z.string().nullable(),
  }),
);
export const WebhookDeliveriesResponse = named(
  'WebhookDeliveriesResponse',
  z.object({
    items: z.array(WebhookDeliveryResponse),
    page: z.number().int(),
    pageSize: z.number().int(),
    totalCount: z.number().int(),
  }),
);

const idParams = z.object({ id: z.string().max(64) });
const deliveriesQuery = z.object({ page: pageParam(999_999_999, 1), pageSize: pageParam(100, 25) }).strict();

/** A subscription URL: https, or http to loopback for development, and an address webhooks may reach. */
export async function checkSubscriptionUrl(url: string, networks: Networks): Promise<void> {
  const { protocol, hostname } = new URL(url);
  const loopback = /^(localhost|127(\.\d+){3}|\[::1\])$/i.test(hostname);
  if (protocol !== 'https:' && !(protocol === 'http:' && loopback)) {
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: 'url',
      reason: `${url}: use https (http only to a loopback address, for development)`,
    });
  }
  await checkWebhookUrl(url, networks, 'url');
}

/** POST/GET/DELETE /webhooks and GET /webhooks/{id}/deliveries. */
export async function webhookRoutes(app: FastifyInstance, deps: AppDeps, networks: Networks) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const now = () => new Date(deps.now?.() ?? Date.now());

  api.post(
    '/webhooks',
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        body: WebhookSubscriptionRequest,
        response: { 201: WebhookSubscriptionCreatedResponse, ...keyProtectedErrors },
      },
    },
    async (request, reply) => {
      await checkSubscriptionUrl(request.body.url, networks);
      return reply.status(201).send(await createSubscription(deps.wh, request.organizationId, request.body, now()));
    },
  );

  api.get(
    '/webhooks',
    {
      config: { auth: true },
      schema: { tags, security, response: { 200: WebhookSubscriptionsResponse, ...keyProtectedErrors } },
    },
    async (request) => ({
      items: (await listSubscriptions(deps.wh, request.organizationId)).map(({ organizationId: _o, ...s }) => s),
    }),
  );

  api.delete(
    '/webhooks/:id',
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        params: idParams,
        response: { 204: noContent, 404: ApiNotFoundResponse, ...keyProtectedErrors },
      },
    },
    async (request, reply) => {
      await deleteSubscription(deps.wh, request.organizationId, request.params.id, now());
      return reply.status(204).send(null);
    },
  );

  api.get(
    '/webhooks/:id/deliveries',
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        params: idParams,
        querystring: deliveriesQuery,
        response: { 200: WebhookDeliveriesResponse, 404: ApiNotFoundResponse, ...keyProtectedErrors },
      },
    },
    async (request) => {
      const { id } = await getSubscription(deps.wh, request.organizationId, request.params.id);
      const { page, pageSize } = request.query;
      const { rows, total } = await deliveriesOf(deps.wh.db, id, { page, pageSize });
      const iso = (v: string | null) => (v === null ? null : new Date(v).toISOString());
      return {
        items: rows.map((r) => ({
          id: r.id,
          webhookId: r.event_id,
          messageType: r.message_type,
          status: r.status,
          attempts: r.attempts,
          lastStatus: r.last_status,
          lastError: r.last_error,
          nextAttemptAt: r.status === 'PENDING' ? iso(r.next_attempt_at) : null,
          createdAt: iso(r.created_at)!,
          deliveredAt: iso(r.delivered_at),
        })),
        page,
        pageSize,
        totalCount: total,
      };
    },
  );
}
