import { badge, count, dataTable, html, statusTone, text, when } from '../layout.ts';
import type { PageContext } from '../page-context.ts';
import { subscriptionsListed } from '../../webhooks/subscriptions.ts';
import { latestDeliveries } from '../../webhooks/deliveries.ts';

const deliveryLimit = 100;

/** `/webhooks`: the webhook subscriptions and the latest deliveries (status, attempts, answer, error). */
export async function webhooksPage(ctx: PageContext): Promise<string> {
  const org = ctx.scope.operator ? undefined : ctx.scope.organizationId;
  const subscriptionRows = await subscriptionsListed(ctx.wh.db, org);
  const deliveryRows = await latestDeliveries(ctx.wh.db, org, deliveryLimit);
  const list = (json: string | null) => {
    try {
      return json ? (JSON.parse(json) as string[]).join(', ') : 'all';
    } catch {
      return json ?? 'all';
    }
  };
  return `<h2>Subscriptions</h2>${dataTable(
    'Webhook subscriptions',
    [
      { header: 'URL', cell: (s) => `${text(s.url)}<br><code class="muted">${html(s.id)}</code>` },
      { header: 'Events', cell: (s) => text(list(s.message_types)) },
      { header: 'Connections', cell: (s) => text(list(s.seller_or_vendor_ids)) },
      {
        header: 'State',
        cell: (s) =>
          s.disabled_at
            ? `${badge('disabled', 'bad')} <span class="error">${html(s.disabled_reason ?? '')}</span>`
            : badge('active', 'ok'),
      },
      { header: 'Created', cell: (s) => when(s.created_at) },
    ],
    subscriptionRows,
    'No webhook subscriptions.',
  )}
<h2>Delivery log</h2>${dataTable(
    `The latest ${deliveryLimit} deliveries`,
    [
      { header: 'Event', cell: (d) => text(d.message_type) },
      { header: 'URL', cell: (d) => text(d.url) },
      { header: 'Status', cell: (d) => badge(d.status.toLowerCase(), statusTone(d.status)) },
      { header: 'Attempts', cell: (d) => count(d.attempts), num: true },
      { header: 'Answer', cell: (d) => text(d.last_status) },
      { header: 'Last attempt', cell: (d) => when(d.last_attempt_at) },
      { header: 'Delivered', cell: (d) => when(d.delivered_at) },
      { header: 'Next attempt', cell: (d) => (d.status === 'PENDING' ? when(d.next_attempt_at) : '—') },
      { header: 'Error', cell: (d) => (d.last_error ? `<span class="error">${html(d.last_error)}</span>` : '—') },
    ],
    deliveryRows,
    'No deliveries yet.',
  )}`;
}
