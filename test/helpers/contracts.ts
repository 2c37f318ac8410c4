import type { FakeMarketplace } from '@mktdata/fake-marketplace';
import {
  operationOf,
  requestViolations,
  responseViolations,
} from '../../packages/fake-marketplace/test/contracts/published-models.ts';

/**
 * Every SP-API request the clients sent to a fake that records its exchanges, and every answer it gave, checked
 * against the marketplace's published models: one line per distinct difference, with how often it happened.
 */
export function contractViolations(fake: FakeMarketplace): string[] {
  const seen = new Map<string, number>();
  const note = (line: string) => seen.set(line, (seen.get(line) ?? 0) + 1);
  for (const { exchange } of fake.log) {
    if (!exchange) continue;
    const op = operationOf(exchange.method, exchange.path);
    if (!op) {
      note(`${exchange.method} ${exchange.path}: no operation of the published models`);
      continue;
    }
    for (const v of requestViolations(op, exchange)) note(`${op.operationId} request: ${v}`);
    for (const v of responseViolations(op, exchange.response)) note(`${op.operationId} answer: ${v}`);
  }
  return [...seen].map(([line, n]) => (n > 1 ? `${line} (×${n})` : line));
}

/** The operations (the models' operationIds) a fake answered with a recorded exchange. */
export function exchangedOperations(fake: FakeMarketplace): Set<string> {
  return new Set(
    fake.log.flatMap(({ exchange }) =>
      exchange ? [operationOf(exchange.method, exchange.path)?.operationId ?? ''] : [],
    ),
  );
}

/**
 * The operations only the fetch pipelines call (test/e2e/live-connectors checks them); every other operation the fake
 * serves is an action's or `connections test`'s (test/e2e/actions-every-type checks those).
 */
export const fetchOnlyOperations: ReadonlySet<string> = new Set([
  'createReport',
  'getReport',
  'getReports',
  'getReportDocument',
  'getInventorySummaries',
  'getItemOffersBatch',
  'listInventory',
  'listInboundShipments',
  'getInboundShipment',
  'listOutbounds',
  'listReplenishmentOrders',
  'getSellingPartnerMetrics',
  'listOfferMetrics',
  'listOffers',
  'listInboundPlans',
  'getInboundPlan',
  'getShipment',
  'listShipmentItems',
]);
