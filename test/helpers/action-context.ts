import type { ActionContext, ActionDefinition, ActionOutcome } from '../../src/actions/definitions/define.ts';
import type { Credentials } from '../../src/connectors/credentials.ts';
import { demoSellers, type FakeSeller } from '@mktdata/fake-marketplace';
import { liveMarketplace } from './live.ts';

/**
 * A fake marketplace (demo sellers, fast clock) and a way to run action definitions against it directly, without
 * a warehouse or the API: `run(definition, details)` parses the details with the type's schema, then runs it for the
 * seller (SP-API and, when it advertises, Ads API credentials granted by the fake). `check` looks at a waiting one.
 * An upstream 400 comes out as the ConnectorError (kind 'invalid-input') the worker turns into BLOCKED_INVALID_INPUT.
 */
export async function actionBench(options: { sellers?: (sellers: FakeSeller[]) => FakeSeller[] } = {}) {
  const live = await liveMarketplace({
    start: '2025-03-01T12:00:00Z',
    openedOn: '2024-10-01',
    sellers: (options.sellers ?? ((s) => s))(demoSellers('2024-10-01')),
  });
  const context = (seller: FakeSeller = live.sellers[0]!): ActionContext => {
    const credentials = (api: 'sp-api' | 'ads'): Credentials => ({
      api,
      connectionId: seller.sellerId,
      marketplaceId: seller.marketplaceId,
      region: seller.region,
      status: 'active',
      statusReason: null,
      refreshToken: live.fake.grant(seller.sellerId, api),
      sellingPartnerId: seller.sellerId,
      profileId: seller.ads ? String(seller.ads.profileId) : null,
    });
    return {
      sp: () => live.connectors.sp(credentials('sp-api')),
      ads: () => live.connectors.ads(credentials('ads')),
      sellerId: seller.sellerId,
      marketplaceId: seller.marketplaceId,
      currency: seller.currency,
      now: live.clock.now(),
    };
  };
  const run = (definition: ActionDefinition, details: unknown, seller?: FakeSeller): Promise<ActionOutcome> =>
    definition.run(context(seller), definition.schema.parse(details));
  const check = (
    definition: ActionDefinition,
    externalId: string,
    details: unknown,
    seller?: FakeSeller,
  ): Promise<ActionOutcome> => definition.check!(context(seller), externalId, definition.schema.parse(details));
  return { ...live, context, run, check };
}
