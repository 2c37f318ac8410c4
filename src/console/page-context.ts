import type { ControlStore } from '../db/control-store.ts';
import type { Home } from '../home.ts';
import type { ConsoleScope } from './scope.ts';

/**
 * What a console page is rendered from: the control plane, the home (published snapshot), whose view, and the clock.
 */
export interface PageContext {
  wh: ControlStore;
  home: Home;
  scope: ConsoleScope;
  now: Date;
  /** The pipelines a "run now" can start, when this server runs them (`mktdata serve`); else undefined. */
  pipelines?: string[];
}

/** The ids and names of the connections a scope sees (every connection for the operator). */
export async function scopeConnections(
  ctx: PageContext,
): Promise<{ id: string; name: string; organization: string }[]> {
  let query = ctx.wh.db
    .selectFrom('control.connections as c')
    .innerJoin('control.organizations as o', 'o.id', 'c.organization_id')
    .select(['c.id', 'c.name', 'o.name as organization']);
  if (!ctx.scope.operator) query = query.where('c.organization_id', '=', ctx.scope.organizationId);
  return query.orderBy('o.name').orderBy('c.name').execute();
}

/** `[id]` when a list would be empty: SQL `in ()` is not valid, and no connection has the id ''. */
export const nonEmpty = (ids: string[]): string[] => (ids.length > 0 ? ids : ['']);
