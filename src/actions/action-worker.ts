import type { Connectors } from '../connectors/connectors.ts';
import { PassLoop } from '../control/pass-loop.ts';
import { ConnectorError } from '../connectors/connector-error.ts';
import { requireCredentials } from '../connectors/credentials.ts';
import { loadMarketplaces } from '../control/marketplaces.ts';
import type { Warehouse } from '../db/warehouse.ts';
import { MktdataError } from '../errors.ts';
import type { ActionType } from './action-types.ts';
import { executors, type ActionOutcome } from './executors.ts';

/**
 * Works through the queued actions (`serve`): the oldest PENDING first, one at a time (the connectors' buckets pace
 * the upstream calls), each IN_PROGRESS while its operations run, then COMPLETED (with `result`) or ERROR (with
 * `error`). The queue is in the warehouse: an action a stopped server left IN_PROGRESS runs again at the next start
 * (the mapped operations are idempotent: a listing patch sets a value).
 */
export class ActionWorker {
  private readonly loop = new PassLoop(() => this.pass(), (message) => this.log(`actions: ${message}`));

  constructor(
    private readonly wh: Warehouse,
    private readonly connectors: Connectors | undefined,
    private readonly now: () => number = Date.now,
    private readonly log: (message: string) => void = console.error,
  ) {}

  async start(intervalMs = 1_000): Promise<void> {
    await this.wh.db.updateTable('control.actions').set({ status: 'PENDING' }).where('status', '=', 'IN_PROGRESS').execute();
    this.loop.start(intervalMs);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Runs every PENDING action, after the pass already running; returns how many ran. */
  runPending(): Promise<number> {
    return this.loop.run();
  }

  private async pass(): Promise<number> {
    let ran = 0;
    for (;;) {
      const next = await this.wh.db.selectFrom('control.actions').selectAll().where('status', '=', 'PENDING').orderBy('created_at').orderBy('id').executeTakeFirst();
      if (!next) return ran;
      await this.set(next.id, { status: 'IN_PROGRESS' });
      const outcome = await this.execute(next).catch((error: unknown): ActionOutcome => ({ status: 'ERROR', result: null, error: errorOf(error) }));
      await this.set(next.id, {
        status: outcome.status,
        result: outcome.result === null || outcome.result === undefined ? null : JSON.stringify(outcome.result),
        error_status: outcome.error?.status ?? null,
        error_code: outcome.error?.code ?? null,
        error_message: outcome.error?.message ?? null,
      });
      ran++;
    }
  }

  private async execute(action: { type: string; connection_id: string; details: string }): Promise<ActionOutcome> {
    const executor = executors[action.type as ActionType];
    if (!executor) throw new MktdataError('ERR_ACTION_TYPE_UNSUPPORTED', { type: action.type, reason: 'this server does not run it yet' });
    if (!this.connectors) throw new MktdataError('ERR_CONNECTOR_CONFIG', { what: 'the live connectors', env: 'MKTDATA_SP_API_CLIENT_ID and MKTDATA_SP_API_CLIENT_SECRET', file: 'mktdata.config' });
    const credentials = await requireCredentials(this.wh, action.connection_id, 'sp-api');
    const connection = await this.wh.db.selectFrom('control.connections').select(['seller_id', 'marketplace_id']).where('id', '=', action.connection_id).executeTakeFirstOrThrow();
    const sellerId = credentials.sellingPartnerId ?? connection.seller_id;
    if (!sellerId) throw new MktdataError('ERR_INPUT_INVALID', { where: `connection ${action.connection_id}`, reason: 'no selling partner id: give it with `mktdata connections credentials --selling-partner-id`' });
    const currency = loadMarketplaces().get(connection.marketplace_id)?.currency ?? 'USD';
    return executor({ sp: this.connectors.sp(credentials), sellerId, marketplaceId: connection.marketplace_id, currency, details: JSON.parse(action.details) as Record<string, unknown> });
  }

  private async set(id: string, values: Record<string, unknown>): Promise<void> {
    await this.wh.db.updateTable('control.actions').set({ ...values, updated_at: new Date(this.now()).toISOString() }).where('id', '=', id).execute();
  }
}

/** The `error` of an action that failed: the upstream status and code, or mktdata's own. */
function errorOf(error: unknown): { status: number; code: string; message: string } {
  if (error instanceof ConnectorError) return { status: error.status ?? 502, code: error.code ?? error.kind, message: error.message };
  if (error instanceof MktdataError) return { status: error.status, code: error.code, message: error.message };
  return { status: 500, code: 'ERR_INTERNAL', message: error instanceof Error ? error.message : String(error) };
}
