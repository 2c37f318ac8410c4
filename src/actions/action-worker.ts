import type { Connectors } from '../connectors/connectors.ts';
import { ConnectorError } from '../connectors/connector-error.ts';
import { requireCredentials } from '../connectors/credentials.ts';
import { loadMarketplaces } from '../control/marketplaces.ts';
import { PassLoop } from '../control/pass-loop.ts';
import { charged, paidFor } from '../control/tokens.ts';
import type { Warehouse } from '../db/warehouse.ts';
import { MktdataError } from '../errors.ts';
import type { ActionStatus, ActionType } from '../vocabulary/action-types.ts';
import { ACTION_TOKENS, requireAllowed } from './actions.ts';
import { actionDefinitions } from './definitions/index.ts';
import type { ActionContext, ActionOutcome } from './definitions/define.ts';
import { connectionAccount } from '../control/connections/connections.ts';
import { actionsToCheck, nextPendingAction, requeueInProgressActions, updateAction } from './action-queue.ts';

type Row = {
  id: string;
  organization_id: string;
  type: string;
  connection_id: string;
  details: string;
  external_id: string | null;
  creator?: string;
};

/**
 * Works through the queued actions (`serve`): the oldest PENDING first, one at a time (the connectors' buckets pace
 * the upstream calls). Starting one debits its token (BLOCKED_NO_TOKENS when the organization has none left) and
 * checks the access rule again (CANCELED when the type was disabled or the access lowered since); it is IN_PROGRESS
 * while its operations run, then ends as its definition says: COMPLETED (with `result`), PARTIALLY_COMPLETED or
 * COMPLETED_WITH_ISSUES for batches, BLOCKED_INVALID_INPUT when the marketplace refused the input, ERROR otherwise,
 * or WAITING_EXTERNAL_PROCESSING until a later check of its upstream id ends it. The queue is in the warehouse: an
 * action a stopped server left IN_PROGRESS runs again at the next start (its token is not debited twice), and a
 * waiting one is checked again.
 */
export class ActionWorker {
  private readonly loop = new PassLoop(
    () => this.pass(),
    (message) => this.log(`actions: ${message}`),
  );

  constructor(
    private readonly wh: Warehouse,
    private readonly connectors: Connectors | undefined,
    private readonly now: () => number = Date.now,
    private readonly log: (message: string) => void = console.error,
  ) {}

  async start(intervalMs = 1_000): Promise<void> {
    await requeueInProgressActions(this.wh.db);
    this.loop.start(intervalMs);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Runs every PENDING action and checks every waiting one that is due, after the pass already running; how many. */
  runPending(): Promise<number> {
    return this.loop.run();
  }

  private async pass(): Promise<number> {
    let ran = 0;
    for (;;) {
      const next = await nextPendingAction(this.wh.db);
      if (!next) break;
      const started = await this.begin(next);
      if (started)
        await this.finish(
          next.id,
          await this.execute(next, (ctx, details) => actionDefinitions[next.type as ActionType]!.run(ctx, details)),
        );
      ran++;
    }
    const due = await actionsToCheck(this.wh.db, new Date(this.now()));
    for (const action of due) {
      await this.finish(
        action.id,
        await this.execute(action, (ctx, details) =>
          actionDefinitions[action.type as ActionType]!.check!(ctx, action.external_id!, details),
        ),
      );
      ran++;
    }
    return ran;
  }

  /** IN_PROGRESS, paid for and still allowed; false when it ended BLOCKED_NO_TOKENS or CANCELED instead. */
  private async begin(action: Row): Promise<boolean> {
    try {
      await requireAllowed(this.wh, action.organization_id, action.type, action.connection_id);
    } catch (error) {
      await this.finish(action.id, { status: 'CANCELED', result: null, error: errorOf(error) });
      return false;
    }
    const inProgress = {
      status: 'IN_PROGRESS' as const,
      next_check_at: null,
      updated_at: new Date(this.now()).toISOString(),
    };
    // An action the last server left IN_PROGRESS was paid for when it started: its usage record says so.
    if (await paidFor(this.wh.db, action.id)) {
      await updateAction(this.wh.db, action.id, inProgress);
      return true;
    }
    try {
      await charged(
        this.wh,
        action.organization_id,
        {
          usageType: 'ACTIONS',
          specificUsageType: action.creator === 'MCP' ? 'ACTIONS_MCP_STANDARD' : 'ACTIONS_API_STANDARD',
          tokens: ACTION_TOKENS,
          resourceId: action.id,
        },
        new Date(this.now()),
        (trx) => updateAction(trx, action.id, inProgress),
      );
      return true;
    } catch (error) {
      if (!(error instanceof MktdataError && error.code === 'ERR_NO_TOKENS')) throw error;
      await this.finish(action.id, { status: 'BLOCKED_NO_TOKENS', result: null, error: errorOf(error) });
      return false;
    }
  }

  /**
   * Runs a definition's step with the connection's context; an upstream refusal of the input is BLOCKED_INVALID_INPUT.
   */
  private async execute(
    action: Row,
    step: (ctx: ActionContext, details: unknown) => Promise<ActionOutcome>,
  ): Promise<ActionOutcome> {
    try {
      return await step(await this.context(action), JSON.parse(action.details) as unknown);
    } catch (error) {
      const invalid = error instanceof ConnectorError && error.kind === 'invalid-input';
      return { status: invalid ? 'BLOCKED_INVALID_INPUT' : 'ERROR', result: null, error: errorOf(error) };
    }
  }

  private async context(action: Row): Promise<ActionContext> {
    const connectors = this.connectors;
    if (!connectors)
      throw new MktdataError('ERR_CONNECTOR_CONFIG', {
        what: 'the live connectors',
        env: 'MKTDATA_SP_API_CLIENT_ID and MKTDATA_SP_API_CLIENT_SECRET',
        file: 'mktdata.config',
      });
    const connection = await connectionAccount(this.wh.db, action.connection_id);
    const ads = action.type.startsWith('MKT_ADS_');
    const credentials = await requireCredentials(this.wh, action.connection_id, ads ? 'ads' : 'sp-api');
    const sellerId = credentials.sellingPartnerId ?? connection.seller_id;
    if (!ads && !sellerId)
      throw new MktdataError('ERR_INPUT_INVALID', {
        where: `connection ${action.connection_id}`,
        reason: 'no selling partner id: give it with `mktdata connections credentials --selling-partner-id`',
      });
    return {
      sp: () => connectors.sp(credentials),
      ads: () => connectors.ads(credentials),
      sellerId: sellerId ?? '',
      marketplaceId: connection.marketplace_id,
      currency: loadMarketplaces().get(connection.marketplace_id)?.currency ?? 'USD',
      now: this.now(),
    };
  }

  private async finish(id: string, outcome: Omit<ActionOutcome, 'status'> & { status: ActionStatus }): Promise<void> {
    const at = this.now();
    await updateAction(this.wh.db, id, {
      status: outcome.status,
      result: outcome.result === null || outcome.result === undefined ? null : JSON.stringify(outcome.result),
      error_status: outcome.error?.status ?? null,
      error_code: outcome.error?.code ?? null,
      error_message: outcome.error?.message ?? null,
      external_id: outcome.waitFor?.externalId ?? null,
      next_check_at: outcome.waitFor ? new Date(at + outcome.waitFor.checkAfterMs).toISOString() : null,
      updated_at: new Date(at).toISOString(),
    });
  }
}

/** The `error` of an action that failed: the upstream status and code, or mktdata's own. */
function errorOf(error: unknown): { status: number; code: string; message: string } {
  if (error instanceof ConnectorError)
    return { status: error.status ?? 502, code: error.code || error.kind, message: error.message };
  if (error instanceof MktdataError) return { status: error.status, code: error.code, message: error.message };
  return { status: 500, code: 'ERR_INTERNAL', message: error instanceof Error ? error.message : String(error) };
}
